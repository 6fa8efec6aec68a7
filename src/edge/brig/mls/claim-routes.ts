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
import { database } from '../../db/client.js';
import { FederatorClient } from '../../federation/client.js';
import { legalholdStatuses } from '../../galley/face.js';
import { userStore } from '../users/user-store.js';
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
    const db = database(c.env.DB);
    // A user under legal hold (or about to be) has no place in MLS groups (legal hold records Proteus).
    const legalhold = (await legalholdStatuses(db, [user])).get(user);
    if (legalhold === 'pending' || legalhold === 'enabled') throw new ApiError(legalholdErrors.mlsNotAllowed);
    const claimed = await claimLocal(deps(c), user, suite, me.user === user ? me.client : undefined);
    if (claimed === undefined) throw new ApiError(brigErrors.invalidUser);
    return c.json(claimed, 200);
  },
);

/** One package of each client of a local user (`skip` left out); undefined for a user who is not active here. */
export async function claimLocal(d: Deps, user: string, suite: number, skip?: string) {
  const { db, domain } = d;
  const target = await userStore.byId(db, user);
  if (target === undefined || target.status !== 'active') return undefined;
  const now = Math.floor(Date.now() / 1000);
  const claimed = await accountObject(d.env, user).claimKeyPackages(user, suite, now, skip);
  const key_packages = claimed.map((k) => ({
    user,
    domain,
    client: k.client,
    key_package_ref: k.ref,
    key_package: k.data,
  }));
  return { key_packages };
}
