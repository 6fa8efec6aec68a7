import { afterAll, beforeAll, expect } from 'vitest';
import { startLocalDns, type LocalDns } from '../../tools/lib/local-dns.js';
import { startEditedBackend, type TestBackend } from './backend.js';
import { postJson, type Reply } from './http.js';
import { api } from './users.js';
import { disabledEverywhere } from './versions.js';
import { authorizeTeamDomain } from './endpoints/brig.js';

let counter = 0;
/** A domain no other test registers. */
export const freshDomain = () => `corp-${Date.now().toString(36)}-${++counter}.example.org`;

export interface Challenge {
  id: string;
  token: string;
  dns_verification_token: string;
}

/** A DNS challenge for the domain, its TXT record published when `dns` is given. */
export async function challengeFor(publicUrl: string, domain: string, dns?: LocalDns): Promise<Challenge> {
  const r = await postJson(publicUrl, `/v8/domain-verification/${domain}/challenges`, {});
  expect(r.status, r.text).toBe(200);
  if (dns !== undefined) dns.setRecords(`wire-domain.${domain}`, { txt: [r.body.dns_verification_token] });
  return r.body as Challenge;
}

/** A team admin's proof of the domain: the ownership token, or the refusal. */
export function verifyForTeam(publicUrl: string, token: string, domain: string, challenge: Challenge): Promise<Reply> {
  return api(publicUrl, token).post(`/v8/domain-verification/${domain}/team/challenges/${challenge.id}`, {
    challenge_token: challenge.token,
  });
}

/** The team's `domainRegistration` feature unlocked and switched on (what a paying customer has). */
export async function enableDomainRegistration(internalUrl: string, team: string): Promise<void> {
  const base = `/i/teams/${team}/features/domainRegistration`;
  expect((await api(internalUrl).put(`${base}/unlocked`)).status).toBe(200);
  expect((await api(internalUrl).patch(base, { status: 'enabled' })).status).toBe(200);
}

/** The domain proven and authorized for the admin's team; the ownership token. */
export async function authorizedDomain(
  b: { publicUrl: string },
  dns: LocalDns,
  admin: { token: string },
  domain: string,
): Promise<string> {
  const proven = await verifyForTeam(b.publicUrl, admin.token, domain, await challengeFor(b.publicUrl, domain, dns));
  expect(proven.status, proven.text).toBe(200);
  const ownership = proven.body.domain_ownership_token as string;
  const authorized = await authorizeTeamDomain(b.publicUrl, admin.token, domain, {
    domain_ownership_token: ownership,
  });
  expect(authorized.status, authorized.text).toBe(200);
  return ownership;
}

/**
 * A backend of the describe block's own, resolving DNS through a local server the tests publish
 * records in, with v9 on (where a backend is an object) and audit mails to `auditTo`.
 */
export function domainBackend(auditTo: string): { b: TestBackend; dns: LocalDns } {
  const rig = {} as { b: TestBackend; dns: LocalDns };
  beforeAll(async () => {
    rig.dns = await startLocalDns();
    rig.b = await startEditedBackend([
      ...disabledEverywhere([]),
      ['brig.yaml', ['dnsOverHttpsUrl'], rig.dns.dohUrl],
      ['brig.yaml', ['optSettings', 'setAuditLogEmailRecipient'], auditTo],
    ]);
  });
  afterAll(async () => {
    await rig.b?.stop();
    await rig.dns?.stop();
  });
  return rig;
}
