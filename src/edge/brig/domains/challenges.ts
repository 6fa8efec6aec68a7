import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { randomToken, sha256Hex } from '../../../shared/keys.js';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { domainErrors } from '../../api/errors/domains.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { resolveTxt } from '../../dns/resolver.js';

import { blankRegistration, domainOf, domainParam } from './registration-rules.js';
import { registrationStore, type RegistrationRow } from './registration-store.js';
import { domainTeamAdmin } from './team-guard.js';

/** 32 random bytes in unpadded base64url: challenge and ownership tokens. */
const newToken = () => randomToken(32);

const challengeJson = z
  .object({ id: z.uuid(), token: z.string(), dns_verification_token: z.string() })
  .openapi('DomainVerificationChallenge');

export const ownershipToken = z.object({ domain_ownership_token: z.string() }).openapi('DomainOwnershipToken');

/** `POST /domain-verification/{domain}/challenges`: a DNS challenge (anyone may ask, except for a locked domain). */
export const createChallenge = endpoint(
  {
    name: 'domain-verification-challenge',
    auth: 'none',
    method: 'post',
    path: '/domain-verification/{domain}/challenges',
    summary: 'Get a DNS verification challenge',
    request: { params: domainParam },
    errors: [domainErrors.invalidDomain, domainErrors.operationForbidden],
    responses: { 200: { description: 'The challenge', ...json(challengeJson) } },
  },
  async (c) => {
    const domain = domainOf(c.req.valid('param').domain);
    const db = database(c.env.DB);
    if ((await registrationStore.get(db, domain))?.redirect === 'locked')
      throw new ApiError(domainErrors.operationForbidden);
    const id = crypto.randomUUID();
    const token = newToken();
    const dnsToken = newToken();
    await registrationStore.addChallenge(db, {
      id,
      domain,
      tokenHash: await sha256Hex(token),
      dnsToken,
      expiresAt: Date.now() + c.get('config').brig.optSettings.setChallengeTTL * 1000,
    });
    return c.json({ id, token, dns_verification_token: dnsToken }, 200);
  },
);

const verifyParams = domainParam.extend({ challengeId: z.uuid() });
const challengeToken = z.object({ challenge_token: z.string() }).openapi('ChallengeToken');

/**
 * Proves the domain: the challenge's token, and its DNS token in a TXT record at
 * `wire-domain.<domain>`. The challenge is then used up, and a new ownership token (the only
 * valid one from now on) is kept by its hash in the registration.
 */
async function verifyChallenge(
  c: Context<AppEnv>,
  domain: string,
  challengeId: string,
  token: string,
  before: RegistrationRow | undefined,
): Promise<string> {
  const db = database(c.env.DB);
  const challenge = await registrationStore.challenge(db, challengeId);
  if (challenge === undefined) throw new ApiError(domainErrors.challengeNotFound);
  if (challenge.domain !== domain || challenge.tokenHash !== (await sha256Hex(token)))
    throw new ApiError(domainErrors.authFailure);
  let records: string[];
  try {
    records = await resolveTxt(c.get('config').brig.dnsOverHttpsUrl, `wire-domain.${domain}`);
  } catch {
    records = [];
  }
  if (!records.includes(challenge.dnsToken)) throw new ApiError(domainErrors.verificationFailed);
  const ownership = newToken();
  await registrationStore.put(db, {
    ...(before ?? blankRegistration(domain)),
    ownershipHash: await sha256Hex(ownership),
    dnsToken: challenge.dnsToken,
  });
  await registrationStore.deleteChallenge(db, challengeId);
  return ownership;
}

/**
 * A verification route, the proof the same for both: anyone may prove a domain operators registered
 * (`team` false), a team's admin any domain (`team` true).
 */
function verifyRoute(spec: { name: string; path: string; summary: string; team: boolean }): Endpoint {
  return endpoint(
    {
      name: spec.name,
      ...(spec.team ? {} : { auth: 'none' as const }),
      method: 'post',
      path: spec.path,
      summary: spec.summary,
      request: { params: verifyParams, ...jsonBody(challengeToken) },
      errors: [
        domainErrors.invalidDomain,
        domainErrors.operationForbidden,
        ...(spec.team ? [domainErrors.paymentRequired] : []),
        domainErrors.challengeNotFound,
        domainErrors.authFailure,
        domainErrors.verificationFailed,
      ],
      responses: { 200: { description: 'The domain ownership token', ...json(ownershipToken) } },
    },
    async (c) => {
      const { domain: text, challengeId } = c.req.valid('param');
      const domain = domainOf(text);
      const before = await registrationStore.get(database(c.env.DB), domain);
      if (before?.redirect === 'locked') throw new ApiError(domainErrors.operationForbidden);
      if (spec.team) await domainTeamAdmin(c);
      else if (before === undefined) throw new ApiError(domainErrors.operationForbidden);
      const token = await verifyChallenge(c, domain, challengeId, c.req.valid('json').challenge_token, before);
      return c.json({ domain_ownership_token: token }, 200);
    },
  );
}

/** `POST /domain-verification/{domain}/challenges/{id}`: the anonymous proof, for a domain operators registered. */
export const verifyChallengeAnonymously = verifyRoute({
  name: 'verify-challenge',
  path: '/domain-verification/{domain}/challenges/{challengeId}',
  summary: 'Verify a DNS verification challenge',
  team: false,
});

/**
 * `POST /domain-verification/{domain}/team/challenges/{id}`: a team's admin proves the domain; it
 * need not be known here before (the team then authorizes itself with the ownership token).
 */
export const verifyChallengeForTeam = verifyRoute({
  name: 'verify-challenge-team',
  path: '/domain-verification/{domain}/team/challenges/{challengeId}',
  summary: "Verify a DNS verification challenge for the caller's team",
  team: true,
});
