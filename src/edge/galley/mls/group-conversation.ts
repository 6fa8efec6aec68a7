import type { Context } from 'hono';
import { ConvType, decodeGroupId } from '../../../shared/mls/group-id.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { loadMembershipOf, type Membership, requireMember } from '../conversations/access-check.js';
import { conversationBook } from '../conversations/conversation-book.js';
import type { ConversationRow, MemberRow } from '../conversations/conversation-store.js';
import { unstoredOne2One } from './one2one-first-commit.js';
import { type Deps, deps } from '../../api/deps.js';
import { conversationObject } from '../conversations/conversation-object.js';
import type { GroupClient } from '../../../shared/mls/delivery.js';

/**
 * The conversation an MLS group id names, and the membership of the caller (or of `remote`, a
 * user of another backend acting through federation) of it (404 `no-conversation` otherwise): 400
 * `mls-protocol-error` for a group id that names none; another backend's group needs federation.
 * A subconversation's group names its conversation and the subconversation. An MLS 1:1 is not
 * stored before its first commit: `unstored`, with the caller as its only member.
 */
export async function groupConversation(
  c: Context<AppEnv>,
  groupId: Uint8Array | GroupTarget,
  remote?: QualifiedId,
): Promise<Membership & { id: { id: string; domain: string }; subconv: string | undefined; unstored: boolean }> {
  const { id, subconv, convType } = groupId instanceof Uint8Array ? groupTarget(c, groupId) : groupId;
  const first = subconv === undefined && convType === ConvType.one2one;
  if (first && (await conversationBook.get(c.env, id)) === undefined)
    return { ...unstoredOne2One(id, remote ?? selfQualified(c)), id, subconv, unstored: true };
  if (remote !== undefined) {
    const m = await loadMembershipOf(deps(c), id, remote);
    if (m.me === undefined) throw new ApiError(galleyErrors.noConversation);
    return { ...m, me: m.me, id, subconv, unstored: false };
  }
  return { ...(await requireMember(deps(c), id, selfQualified(c))), id, subconv, unstored: false };
}

/**
 * A commit's view of its conversation: as groupConversation gives it, but without reading every
 * member (a group of thousands): whether some are of other backends, and which of given users
 * are members, asked when needed.
 */
export interface GroupStanding {
  id: { id: string; domain: string };
  subconv: string | undefined;
  unstored: boolean;
  conv: ConversationRow;
  me: MemberRow;
  /** Some member is a user of another backend. */
  elsewhere: boolean;
  /** Which of these users are members, as `domain/user`. */
  membersAmong(users: readonly QualifiedId[]): Promise<ReadonlySet<string>>;
  /**
   * Whether any of these clients is in the group at `epoch`; which of their users are members is
   * asked in the same call, for membersAmong.
   */
  holds(epoch: number, clients: readonly GroupClient[]): Promise<boolean>;
}

const userKey = (u: QualifiedId) => `${u.domain}/${u.id}`;

/** groupConversation's answer as a GroupStanding (the same refusals), in lookups whatever the group's size. */
export async function groupStanding(c: Context<AppEnv>, at: GroupTarget, remote?: QualifiedId): Promise<GroupStanding> {
  const { id, subconv, convType } = at;
  const who = remote ?? selfQualified(c);
  const local = deps(c).domain;
  const standing = await conversationBook.standing(c.env, id, [who], local);
  if (standing === undefined) {
    if (subconv !== undefined || convType !== ConvType.one2one) throw new ApiError(galleyErrors.noConversation);
    const { conv, me } = unstoredOne2One(id, who);
    const membersAmong = async (users: readonly QualifiedId[]) =>
      new Set(users.map(userKey).filter((k) => k === userKey(who)));
    // Not stored: no group yet, whose clients an add could repeat.
    const holds = async () => false;
    return { id, subconv, unstored: true, conv, me, elsewhere: who.domain !== local, membersAmong, holds };
  }
  const me = standing.members[0];
  if (me === undefined) throw new ApiError(galleyErrors.noConversation);
  // A commit's checks and its handler ask about the same added users: the object is asked once.
  const asked = new Map<string, Promise<ReadonlySet<string>>>();
  const membersAmong = (users: readonly QualifiedId[]) => {
    const key = users.map(userKey).join(',');
    let found = asked.get(key);
    if (found === undefined) asked.set(key, (found = membersOf(deps(c), id, users)));
    return found;
  };
  const holds = async (epoch: number, clients: readonly GroupClient[]) => {
    const users = [
      ...new Map(clients.map((g) => [`${g.domain}/${g.user}`, { id: g.user, domain: g.domain }])).values(),
    ];
    const answer = conversationObject(c.env, id).groupHolds(id, subconv, epoch, clients, local);
    const members = answer.then(
      (a): ReadonlySet<string> => new Set(a.members.map((m) => `${m.userDomain}/${m.userId}`)),
    );
    members.catch(() => {}); // a failed call is answered below; nobody may ask for its members
    asked.set(users.map(userKey).join(','), members);
    return (await answer).holds;
  };
  const { row, elsewhere } = standing;
  return { id, subconv, unstored: false, conv: row, me, elsewhere, membersAmong, holds };
}

async function membersOf(
  d: Deps,
  conv: { id: string; domain: string },
  users: readonly QualifiedId[],
): Promise<ReadonlySet<string>> {
  if (users.length === 0) return new Set();
  const found = (await conversationBook.standing(d.env, conv, users, d.domain))?.members ?? [];
  return new Set(found.map((m) => `${m.userDomain}/${m.userId}`));
}

export interface GroupTarget {
  id: { id: string; domain: string };
  subconv: string | undefined;
  convType: ConvType;
}

/**
 * What a group id names, read from the id alone: 400 `mls-protocol-error` for one that names
 * nothing; another backend's group is refused unless the caller goes to its owner (`remote`).
 */
/** wire-server's words for a group id it cannot read, with why after the colon. */
export const UNPARSABLE_GROUP_ID = 'Could not parse group ID: malformed, or of an unknown version or type';

export function groupTarget(c: Context<AppEnv>, groupId: Uint8Array, o: { remote?: boolean } = {}): GroupTarget {
  const parts = decodeGroupId(groupId);
  if (parts === undefined) throw new ApiError(mlsErrors.mlsProtocolError, UNPARSABLE_GROUP_ID);
  if (parts.domain !== deps(c).domain && o.remote !== true) throw new ApiError(federationErrors.federationNotEnabled);
  return { id: { id: parts.conv, domain: parts.domain }, subconv: parts.subconv, convType: parts.convType };
}
