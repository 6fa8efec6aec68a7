// on-conversation-created: the owning backend registers a new conversation with the backends of
// its other members. Here it is the receiving side's copy of the conversation, its members as
// the owner listed them, kept current by on-conversation-updated.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { qualifiedUserId } from '../../api/schemas/common.js';
import { saveCopy } from './remote-copies.js';
import type { ConvType } from '../../../shared/db/schema.js';
import { emptyResponse, federationRpc } from '../../federation/rpc.js';
import { announceCreatedEffect } from '../conversations/announce-created.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import { otherMemberJson } from '../conversations/conversation-json.js';
import type { ConversationRow, MemberRow } from '../conversations/conversation-store.js';
import { memberRow } from '../conversations/member-data.js';
import { ROLE_ADMIN } from '../conversations/roles.js';
import { protocolColumns, protocolJson, protocolSchema } from './protocol-json.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const otherMember = z.object({ qualified_id: qualifiedUserId, conversation_role: z.string() }).loose();

const conversationCreated = z
  .object({
    time: z.string(),
    orig_user_id: z.uuid(),
    cnv_id: z.uuid(),
    cnv_type: z.int().min(0).max(3),
    cnv_access: z.array(z.string()),
    cnv_access_roles: z.array(z.string()),
    cnv_name: z.string().nullish(),
    non_creator_members: z.array(otherMember),
    message_timer: z.int().nullish(),
    receipt_mode: z.int().nullish(),
    protocol: protocolSchema,
    group_conv_type: z.string().nullish(),
    channel_add_permission: z.string().nullish(),
  })
  .loose()
  .openapi('ConversationCreated');

/**
 * What the owner tells the other members' backends of a conversation it created. An MLS 1:1 has
 * no creator: its member on the owner's side stands in.
 */
export function conversationCreatedPayload(conv: ConversationRow, members: readonly MemberRow[]) {
  // A conversation owned here has a creator, or a member here when it has none (an MLS 1:1).
  const creator = (conv.creator ?? members.find((m) => m.userDomain === conv.domain)?.userId)!;
  return {
    time: new Date(conv.createdAt).toISOString(),
    orig_user_id: creator,
    cnv_id: conv.id,
    cnv_type: conv.type,
    cnv_access: conv.access,
    cnv_access_roles: conv.accessRole,
    cnv_name: conv.name,
    non_creator_members: members
      .filter((m) => !(m.userId === creator && m.userDomain === conv.domain))
      .map(otherMemberJson),
    message_timer: conv.messageTimer,
    receipt_mode: conv.receiptMode,
    protocol: protocolJson(conv),
    group_conv_type: conv.groupConvType,
    channel_add_permission: conv.addPermission,
  };
}

function remoteConversationRow(owner: string, cc: z.output<typeof conversationCreated>): ConversationRow {
  return {
    domain: owner,
    id: cc.cnv_id,
    type: cc.cnv_type as ConvType,
    creator: cc.orig_user_id,
    name: cc.cnv_name ?? null,
    access: cc.cnv_access,
    accessRole: cc.cnv_access_roles,
    team: null,
    messageTimer: cc.message_timer ?? null,
    receiptMode: cc.receipt_mode ?? null,
    ...protocolColumns(cc.protocol),
    cellsState: 'disabled',
    groupConvType: cc.group_conv_type ?? null,
    addPermission: cc.channel_add_permission ?? null,
    createdAt: Number.isNaN(Date.parse(cc.time)) ? Date.now() : Date.parse(cc.time),
  };
}

/** A remote backend has users of this one in a conversation it owns: they get it, and `conversation.create`. */
export const onConversationCreatedRpc = rpcContract({
  component: 'galley',
  rpc: 'on-conversation-created',
  request: conversationCreated,
  response: emptyResponse,
});

export const onConversationCreated = federationRpc(
  { ...onConversationCreatedRpc, description: 'Registered' },
  async (c: Context<AppEnv>, cc, { origin }) => {
    const local = deps(c).domain;
    const conv = remoteConversationRow(origin, cc);
    const creator = { id: cc.orig_user_id, domain: origin };
    const members = [
      memberRow(conv, creator, ROLE_ADMIN, conv.createdAt),
      ...cc.non_creator_members.map((m) => memberRow(conv, m.qualified_id, m.conversation_role, conv.createdAt)),
    ];
    if (!members.some((m) => m.userDomain === local)) return {};
    // Told again when users of this backend are added later: only they hear of it.
    const { fresh, change } = await saveCopy(c.env, local, conv, members);
    const effects = [announceCreatedEffect(c.get('self'), conv, members, creator, fresh)];
    await commitChange(c.env, c.get('config'), joinChanges(change, { statements: [], effects }));
    return {};
  },
);
