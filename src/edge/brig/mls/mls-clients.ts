// A user's MLS clients with their signature keys: what a conversation's owner checks key packages
// against. A remote user's come from their backend (get-mls-clients).
import type { MlsClientKey } from '../../api/access/user-access.js';
import { type Config, localDomain } from '../../../shared/config/index.js';
import { schemeOf } from '../../../shared/mls/suites.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { FederatorClient } from '../../federation/client.js';
import { clientStore } from '../clients/client-store.js';
import { accountObject } from '../clients/account-object.js';
import { getMlsClientsRpc } from '../federation-api/contract.js';

/** The user's clients, their signature keys of the suite's scheme and whether they have packages of the suite. */
export async function mlsClientKeys(
  env: Env,
  config: Config,
  db: Db,
  user: QualifiedId,
  suite: number,
): Promise<MlsClientKey[]> {
  const scheme = schemeOf(suite);
  if (user.domain === localDomain(config)) {
    const [rows, holding] = await Promise.all([
      clientStore.list(db, user.id),
      accountObject(env, user.id).clientsWithKeyPackages(user.id, suite, Math.floor(Date.now() / 1000)),
    ]);
    const withPackages = new Set(holding);
    return rows.map((r) => ({
      client: r.id,
      signatureKey: r.mlsPublicKeys[scheme],
      hasKeyPackages: withPackages.has(r.id),
    }));
  }
  const infos = await FederatorClient.of(config).call(user.domain, getMlsClientsRpc, {
    user_id: user.id,
    cipher_suite: suite,
  });
  return infos.map((i) => ({ client: i.id, signatureKey: i.mls_signature_key, hasKeyPackages: i.mls }));
}

/** One client's signature key of the suite's scheme: what a committer's leaf is checked against. */
export async function mlsSignatureKey(
  env: Env,
  config: Config,
  db: Db,
  user: QualifiedId,
  client: string,
  suite: number,
): Promise<string | undefined> {
  if (user.domain === localDomain(config))
    return (await clientStore.get(db, user.id, client))?.mlsPublicKeys[schemeOf(suite)];
  return (await mlsClientKeys(env, config, db, user, suite)).find((c) => c.client === client)?.signatureKey;
}
