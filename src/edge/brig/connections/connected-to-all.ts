import type { QualifiedId } from '../../api/schemas/common.js';
import { groupBy } from '../../../shared/group-by.js';
import { connectionBook } from './connection-book.js';

/** Whether `user` is connected (both sides accepted) with every one of `others`. */
export async function connectedToAll(env: Env, user: QualifiedId, others: readonly QualifiedId[]): Promise<boolean> {
  const sameDomain = others.filter((o) => o.domain === user.domain).map((o) => o.id);
  const connected = await connectionBook.connectedWith(env, user.id, user.domain, sameDomain);
  // A remote connection is accepted here only once the remote side accepted it too.
  for (const [domain, remote] of groupBy(
    others.filter((o) => o.domain !== user.domain),
    (o) => o.domain,
  )) {
    const accepted = await connectionBook.acceptedTo(
      env,
      user.id,
      domain,
      remote.map((o) => o.id),
    );
    if (remote.some((o) => !accepted.has(o.id))) return false;
  }
  return others.every((o) => o.domain !== user.domain || connected.has(o.id));
}
