// The verdict on a signed assertion, as wire's SP judges it: every reason to deny is collected.
import type { AuthnResponse } from './authn-response.js';

const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
/** Clocks of IdPs and ours may differ this much. */
const SKEW_MS = 60_000;

const time = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));
const past = (iso: string | undefined, now: number) => {
  const t = time(iso);
  return t !== undefined && (Number.isNaN(t) || t <= now);
};
const future = (iso: string | undefined, now: number) => {
  const t = time(iso);
  return t !== undefined && (Number.isNaN(t) || t > now + SKEW_MS);
};

/** Why the assertion does not grant access (empty: it does). */
export function deniedReasons(r: AuthnResponse, sp: { audience: string; recipient: string }, now: number): string[] {
  const reasons: string[] = [];
  if (r.status !== SUCCESS) reasons.push(`status is not success: ${r.status ?? 'none'}`);
  if (future(r.issueInstant, now)) reasons.push('IssueInstant is in the future');
  const c = r.conditions;
  if (c?.audiences === undefined) reasons.push('AudienceRestriction required');
  else if (!c.audiences.includes(sp.audience))
    reasons.push(`bad Audience: we are ${sp.audience}, they expected ${c.audiences.join(', ')}`);
  if (future(c?.notBefore, now)) reasons.push('the assertion is not valid yet (NotBefore)');
  if (past(c?.notOnOrAfter, now)) reasons.push('the assertion has expired (NotOnOrAfter)');
  if (r.bearer === undefined) reasons.push('No Bearer SubjectConfirmation');
  else {
    if (r.bearer.recipient !== sp.recipient)
      reasons.push(`bad Recipient: we are ${sp.recipient}, they expected ${r.bearer.recipient ?? 'none'}`);
    if (past(r.bearer.notOnOrAfter, now)) reasons.push('the SubjectConfirmation has expired');
  }
  if (r.authn === undefined) reasons.push('no AuthnStatement');
  else if (past(r.authn.sessionNotOnOrAfter, now)) reasons.push('the session has expired (SessionNotOnOrAfter)');
  return reasons;
}

/** Until when the assertion's id is kept against replays: its own end, within the configured bound. */
export function keepAssertionUntil(r: AuthnResponse, now: number, maxTtlSeconds: number): number {
  const end = time(r.conditions?.notOnOrAfter) ?? time(r.bearer?.notOnOrAfter);
  const bound = now + maxTtlSeconds * 1000;
  return end === undefined || Number.isNaN(end) ? bound : Math.min(Math.max(end, now), bound);
}
