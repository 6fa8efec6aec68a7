import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { groupBy } from '../../../shared/group-by.js';
import { connectionStore } from './connection-store.js';

/** Whether `user` is connected (both sides accepted) with every one of `others`. */
export async function connectedToAll(db: Db, user: QualifiedId, others: readonly QualifiedId[]): Promise<boolean> {
  const sameDomain = others.filter((o) => o.domain === user.domain).map((o) => o.id);
  const connected = await connectionStore.connectedWith(db, user.id, user.domain, sameDomain);
  // A remote connection is accepted here only once the remote side accepted it too.
  for (const [domain, remote] of groupBy(
    others.filter((o) => o.domain !== user.domain),
    (o) => o.domain,
  )) {
    const accepted = await connectionStore.acceptedTo(
      db,
      user.id,
      domain,
      remote.map((o) => o.id),
    );
    if (remote.some((o) => !accepted.has(o.id))) return false;
  }
  return others.every((o) => o.domain !== user.domain || connected.has(o.id));
}
