import type { QualifiedId } from '../../api/schemas/common.js';
import { connectionBook } from '../connections/connection-book.js';

/** The users who see this user's profile changes: their accepted connections. */
export async function contactsOf(env: Env, user: QualifiedId): Promise<QualifiedId[]> {
  const accepted = await connectionBook.withStatus(env, user.id, ['accepted']);
  return accepted.map((r) => ({ id: r.toUser, domain: r.toDomain }));
}
