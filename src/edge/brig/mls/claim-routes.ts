import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { FederatorClient } from '../../federation/client.js';
import { accountObject } from '../clients/account-object.js';
import { requireMlsEnabled } from './mls-switch.js';
import { parseSuite, suiteText } from './suite-query.js';
import { type Deps, deps } from '../../api/deps.js';
import { claimKeyPackagesRpc, keyPackageBundle } from '../federation-api/contract.js';

/**
 * Claims are limited per claiming user and per claimed user (token buckets in the RateLimiter
 * object): adding a user to many groups at once is normal, draining their packages is not.
 */
const CLAIM_LIMITS = {
  by: { burst: 300, perSecond: 5 },
  of: { burst: 600, perSecond: 10 },
} as const;

async function takeClaimToken(c: Context<AppEnv>, kind: keyof typeof CLAIM_LIMITS, user: string): Promise<void> {
  const { burst, perSecond } = CLAIM_LIMITS[kind];
  const ns = c.env.RATE_LIMITER;
  const result = await ns.get(ns.idFromName(`key-package-claims-${kind}:${user}`)).take(burst, perSecond);
  if (!result.allowed)
    throw new ApiError(brigErrors.rateLimitExceeded, undefined, { 'retry-after': String(result.retryAfterSeconds) });
}

/**
 * `POST /mls/key-packages/claim/{user_domain}/{user}?ciphersuite=`: one package of each of the
 * user's clients, taken out of the store (the caller's own client is skipped when claiming their
 * own); clients without packages are left out.
 */
export const claimKeyPackages = endpoint(
  {
    name: 'mls-key-packages-claim',
    method: 'post',
    path: '/mls/key-packages/claim/{user_domain}/{user}',
    from: 5,
    request: {
      params: z.object({ user_domain: z.string(), user: z.uuid() }),
      query: z.object({ ciphersuite: suiteText.optional() }),
    },
    errors: [
      mlsErrors.mlsNotEnabled,
      mlsErrors.mlsProtocolError,
      brigErrors.invalidUser,
      brigErrors.rateLimitExceeded,
      legalholdErrors.mlsNotAllowed,
      ...FEDERATED_CALL_ERRORS,
    ],
    responses: { 200: { description: 'Claimed key packages', ...json(keyPackageBundle) } },
  },
  async (c) => {
    requireMlsEnabled(c);
    const { user_domain: domain, user } = c.req.valid('param');
    const suite = parseSuite(c.req.valid('query').ciphersuite);
    const me = self(c);
    await takeClaimToken(c, 'by', me.user);
    await takeClaimToken(c, 'of', user);
    if (domain !== deps(c).domain) {
      const remote = await FederatorClient.of(c.get('config')).call(domain, claimKeyPackagesRpc, {
        claimant: me.user,
        target: user,
        cipher_suite: suite,
      });
      return c.json(remote ?? { key_packages: [] }, 200);
    }
    const claim = await claimLocal(deps(c), user, suite, me.user === user ? me.client : undefined);
    // A user under legal hold (or about to be) has no place in MLS groups (legal hold records Proteus).
    if ('refused' in claim)
      throw new ApiError(claim.refused === 'legalhold' ? legalholdErrors.mlsNotAllowed : brigErrors.invalidUser);
    return c.json(claim, 200);
  },
);

/**
 * One package of each client of a local user (`skip` left out), or why none: the user is not
 * active here, or under legal hold. The user's Account object knows both; D1 is not asked.
 */
export async function claimLocal(d: Deps, user: string, suite: number, skip?: string) {
  const now = Math.floor(Date.now() / 1000);
  const claim = await accountObject(d.env, user).claimKeyPackages(user, suite, now, skip);
  if ('refused' in claim) return claim;
  const key_packages = claim.claimed.map((k) => ({
    user,
    domain: d.domain,
    client: k.client,
    key_package_ref: k.ref,
    key_package: k.data,
  }));
  return { key_packages };
}
