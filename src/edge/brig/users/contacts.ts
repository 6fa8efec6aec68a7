import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { connectionStore } from '../connections/connection-store.js';

/** The users who see this user's profile changes: their accepted connections. */
export async function contactsOf(db: Db, user: QualifiedId): Promise<QualifiedId[]> {
  const accepted = await connectionStore.withStatus(db, user.id, ['accepted']);
  return accepted.map((r) => ({ id: r.toUser, domain: r.toDomain }));
}
