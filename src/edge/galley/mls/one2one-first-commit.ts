import { commitChange } from '../../effects/commit-change.js';
import type { Context } from 'hono';
import type { GroupClient } from '../../../shared/mls/delivery.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { Membership } from '../conversations/access-check.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { memberRow } from '../conversations/member-data.js';
import { MLS_ONE2ONE_NAMESPACE, one2OneConvId } from '../conversations/one2one-id.js';
import { ROLE_MEMBER } from '../conversations/roles.js';
import { mlsPrivateConversationRow } from './mls-conversation-row.js';
import { requireConnectedOrTeammate } from './mls-one2one.js';
import { deps } from '../../api/deps.js';

/** The MLS 1:1 `who` commits to before it is stored: `who` alone, as it will be stored. */
export function unstoredOne2One(id: QualifiedId, who: QualifiedId): Membership {
  const me = memberRow(id, who, ROLE_MEMBER);
  return { conv: mlsPrivateConversationRow(id, null, 2), members: [me], me };
}

/**
 * An MLS 1:1 is stored by its first commit (wire-server's `createMLSOne2OneConversation`): the
 * commit must add exactly one other user, the one the conversation's id is derived from, whom the
 * committer (`me`, of this backend or another) is connected to or shares a team with. It is
 * stored with the committer as its member; the commit then adds the other user like any other.
 */
export async function storeOne2OneOnFirstCommit(
  c: Context<AppEnv>,
  m: Pick<Membership, 'conv' | 'members'>,
  adds: readonly GroupClient[],
  me: QualifiedId,
) {
  const others = [
    ...new Map(adds.map((a) => [`${a.domain}/${a.user}`, { id: a.user, domain: a.domain }])).values(),
  ].filter((u) => u.id !== me.id || u.domain !== me.domain);
  const protocol = () =>
    new ApiError(mlsErrors.mlsProtocolError, 'The first commit in a 1-1 conversation should add exactly 1 other user');
  if (others.length !== 1) throw protocol();
  const other = others[0]!;
  const expected = await one2OneConvId(MLS_ONE2ONE_NAMESPACE, me, other);
  if (expected.id !== m.conv.id || expected.domain !== m.conv.domain) throw protocol();
  // Connections are kept from the side of this backend's user.
  const local = me.domain === deps(c).domain;
  await requireConnectedOrTeammate(deps(c), local ? me : other, local ? other : me);
  await commitChange(c.env, c.get('config'), conversationBook.create(c.env, m.conv, m.members, deps(c).domain));
}
