// A user's MLS clients with their signature keys: what a conversation's owner checks key packages
// against. A remote user's come from their backend (get-mls-clients).
import { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import { schemeOf } from '../../../shared/mls/suites.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { FederatorClient } from '../../federation/client.js';
import { clientStore } from '../clients/client-store.js';

/** wire's ClientInfo: the client, its signature key for the scheme asked about, whether it has packages. */
export const clientInfo = z
  .object({ id: z.string(), mls_signature_key: z.string().optional(), mls: z.boolean() })
  .openapi('ClientInfo');

export interface MlsClientKey {
  client: string;
  /** base64; undefined for a client without a key of the scheme. */
  signatureKey: string | undefined;
}

/** The user's clients and their signature keys of the suite's scheme. */
export async function mlsClientKeys(config: Config, db: Db, user: QualifiedId, suite: number): Promise<MlsClientKey[]> {
  const scheme = schemeOf(suite);
  if (user.domain === config.brig.optSettings.setFederationDomain) {
    const rows = await clientStore.list(db, user.id);
    return rows.map((r) => ({ client: r.id, signatureKey: r.mlsPublicKeys[scheme] }));
  }
  const infos = await FederatorClient.of(config).call(
    user.domain,
    'brig',
    'get-mls-clients',
    { user_id: user.id, cipher_suite: suite },
    z.array(clientInfo),
  );
  return infos.map((i) => ({ client: i.id, signatureKey: i.mls_signature_key }));
}
