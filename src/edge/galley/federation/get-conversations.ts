// get-conversations: a backend asks the owner for conversations its user is a member of, as the
// owner has them now; and the caller's side, for POST /conversations/list with other backends' ids
// (an owner that cannot be reached leaves its conversations `failed`).
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ApiVersion } from '../../../shared/api-version.js';
import { groupBy } from '../../../shared/group-by.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { type QualifiedId, qualifiedUserId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import type { ConvType } from '../../../shared/db/schema.js';
import { FederatorClient } from '../../federation/client.js';
import { federationRpc } from '../../federation/rpc.js';
import { conversationJson, otherMemberJson } from '../conversations/conversation-json.js';
import type { ConversationRow, MemberRow } from '../conversations/conversation-store.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { memberRow } from '../conversations/member-data.js';
import { protocolColumns, protocolJson, protocolSchema } from './protocol-json.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const request = z
  .object({ user_id: z.uuid(), conv_ids: z.array(z.uuid()).max(1000) })
  .openapi('GetConversationsRequest');
/** wire's RemoteConversationV2. */
export const remoteConversation = z
  .object({
    id: z.uuid(),
    metadata: z
      .object({
        type: z.int().min(0).max(3),
        creator: z.uuid().nullish(),
        access: z.array(z.string()),
        access_role: z.array(z.string()),
        name: z.string().nullish(),
        team: z.uuid().nullish(),
        message_timer: z.int().nullish(),
        receipt_mode: z.int().nullish(),
        group_conv_type: z.string().nullish(),
        add_permission: z.string().nullish(),
        cells_state: z.enum(['disabled', 'pending', 'ready']).nullish(),
      })
      .loose(),
    members: z.object({
      self_role: z.string(),
      others: z.array(z.object({ qualified_id: qualifiedUserId, conversation_role: z.string() }).loose()),
    }),
    protocol: protocolSchema,
  })
  .loose();
const response = z.object({ convs: z.array(remoteConversation) }).openapi('GetConversationsResponse');
type RemoteConversation = z.output<typeof remoteConversation>;

/** wire's RemoteConversationV2: a conversation as the owner shows it to a member of another backend. */
export function remoteConversationJson(conv: ConversationRow, members: readonly MemberRow[], me: MemberRow) {
  return {
    id: conv.id,
    metadata: {
      type: conv.type,
      creator: conv.creator,
      access: conv.access,
      access_role: conv.accessRole,
      name: conv.name,
      team: conv.team,
      message_timer: conv.messageTimer,
      receipt_mode: conv.receiptMode,
      group_conv_type: conv.groupConvType,
      add_permission: conv.addPermission,
      cells_state: conv.cellsState,
    },
    members: { self_role: me.role, others: members.filter((m) => m !== me).map(otherMemberJson) },
    protocol: protocolJson(conv),
  };
}

/** Another backend asks for conversations owned here that its user is a member of (others are left out). */
const getConversationsRpc = rpcContract({
  component: 'galley',
  rpc: 'get-conversations',
  request: request,
  response: response,
});

export const getConversations = federationRpc(
  { ...getConversationsRpc, description: 'The conversations found' },
  async (c, r, { origin }) => {
    const local = deps(c).domain;
    const convs = await conversationBook.getMany(
      c.env,
      [...new Set(r.conv_ids)].map((id) => ({ id, domain: local })),
    );
    const members = await conversationBook.membersOfMany(c.env, convs);
    const found = convs.flatMap((conv) => {
      const theirs = members.filter((m) => m.convId === conv.id && m.convDomain === conv.domain);
      const me = theirs.find((m) => m.userId === r.user_id && m.userDomain === origin);
      return me === undefined ? [] : [remoteConversationJson(conv, theirs, me)];
    });
    return { convs: found };
  },
);

function rowOf(owner: string, rc: RemoteConversation): ConversationRow {
  const m = rc.metadata;
  return {
    domain: owner,
    id: rc.id,
    type: m.type as ConvType,
    creator: m.creator ?? '',
    name: m.name ?? null,
    access: m.access,
    accessRole: m.access_role,
    team: m.team ?? null,
    messageTimer: m.message_timer ?? null,
    receiptMode: m.receipt_mode ?? null,
    ...protocolColumns(rc.protocol),
    cellsState: m.cells_state ?? 'disabled',
    groupConvType: m.group_conv_type ?? null,
    addPermission: m.add_permission ?? null,
    createdAt: 0,
  };
}

/**
 * A conversation of another backend as the client API shows it to the caller: as its owner
 * described it, with the caller's own settings (muted, archived) from this backend's record of
 * the caller's membership (`kept`), if it has one.
 */
export function remoteConversationView(
  me: QualifiedId,
  owner: string,
  rc: RemoteConversation,
  kept: MemberRow | undefined,
  v: ApiVersion,
) {
  const conv = rowOf(owner, rc);
  const mine = { ...(kept ?? memberRow(conv, me, rc.members.self_role)), role: rc.members.self_role };
  const others = rc.members.others.map((o) => memberRow(conv, o.qualified_id, o.conversation_role));
  return conversationJson(conv, [mine, ...others], me, v);
}

type ConversationView = ReturnType<typeof remoteConversationView>;

/** The conversations of `owner` among `asked` that it shows the caller; its federation errors thrown. */
async function askOwner(c: Context<AppEnv>, owner: string, asked: readonly QualifiedId[], v: ApiVersion) {
  const me = selfQualified(c);
  const body = { user_id: me.id, conv_ids: asked.map((q) => q.id) };
  const answer = await FederatorClient.of(c.get('config')).call(owner, getConversationsRpc, body);
  const shown = answer.convs.filter((rc) => asked.some((q) => q.id === rc.id));
  const kept = await conversationBook.memberships(
    c.env,
    me,
    owner,
    shown.map((rc) => rc.id),
  );
  return shown.map((rc) =>
    remoteConversationView(
      me,
      owner,
      rc,
      kept.find((m) => m.convId === rc.id),
      v,
    ),
  );
}

/** Conversations of other backends, asked of their owners for the caller (an owner not reached: `failed`). */
export async function conversationsOfOwners(c: Context<AppEnv>, ids: readonly QualifiedId[], v: ApiVersion) {
  const found: ConversationView[] = [];
  const failed: QualifiedId[] = [];
  for (const [domain, asked] of groupBy(ids, (id) => id.domain)) {
    try {
      found.push(...(await askOwner(c, domain, asked, v)));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      failed.push(...asked);
    }
  }
  return { found, failed };
}

/** One conversation of another backend, as its owner shows it to the caller (404 `no-conversation` otherwise). */
export async function conversationOfOwner(c: Context<AppEnv>, id: QualifiedId, v: ApiVersion) {
  const [found] = await askOwner(c, id.domain, [id], v);
  if (found === undefined) throw new ApiError(galleyErrors.noConversation);
  return found;
}
