// brig's federation RPCs for MLS: a user's MLS clients (with their signature keys, so the owner of
// a conversation can check who a key package names) and claiming their key packages.
import { z } from '@hono/zod-openapi';
import { SIGNATURE_SCHEMES, schemeOf, type SignatureScheme } from '../../../shared/mls/suites.js';
import { commonErrors } from '../../api/errors/common.js';
import { ApiError } from '../../api/errors/api-error.js';
import { database } from '../../db/client.js';
import { federationRpc } from '../../federation/rpc.js';
import { clientStore } from '../clients/client-store.js';
import { claimLocal } from '../mls/claim-routes.js';
import { accountObject } from '../clients/account-object.js';
import { deps } from '../../api/deps.js';
import { getMlsClientsRpc, claimKeyPackagesRpc, cipherSuite } from './contract.js';

const requestV1 = z.object({ user_id: z.uuid(), cipher_suite: cipherSuite });
const requestV0 = z.object({ user_id: z.uuid(), signature_scheme: z.enum(SIGNATURE_SCHEMES as [SignatureScheme]) });

/**
 * `get-mls-clients`: from v1 the request names a cipher suite, before it a signature scheme (wire's
 * `get-mls-clients@v0`); one path, read by the version the caller speaks.
 */
export const getMlsClients = federationRpc(
  { ...getMlsClientsRpc, description: "The user's clients that registered a signature key of the suite's scheme" },
  async (c, body, { version }) => {
    const read = version === 0 ? requestV0.safeParse(body) : requestV1.safeParse(body);
    if (!read.success) throw new ApiError(commonErrors.badRequest, 'not an MLSClientsRequest');
    const r = read.data;
    const scheme = 'cipher_suite' in r ? schemeOf(r.cipher_suite) : r.signature_scheme;
    const db = database(c.env.DB);
    const now = Math.floor(Date.now() / 1000);
    const clients = (await clientStore.list(db, r.user_id)).filter((cl) => cl.mlsPublicKeys[scheme] !== undefined);
    const holding =
      'cipher_suite' in r && clients.length > 0
        ? new Set(await accountObject(c.env, r.user_id).clientsWithKeyPackages(r.user_id, r.cipher_suite, now))
        : undefined;
    return clients.map((cl) => ({
      id: cl.id,
      mls_signature_key: cl.mlsPublicKeys[scheme],
      mls: holding === undefined || holding.has(cl.id),
    }));
  },
);

export const claimKeyPackagesForRemote = federationRpc(
  {
    ...claimKeyPackagesRpc,
    description:
      "One key package of each of the target's clients; null for a user this backend does not have (or not active, or under legal hold)",
  },
  async (c, r) => {
    const claim = await claimLocal(deps(c), r.target, r.cipher_suite);
    return 'refused' in claim ? null : claim;
  },
);
