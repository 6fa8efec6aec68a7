import { joinChanges } from '../../effects/commit-change.js';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import {
  FEDERATED_CALL_ERRORS,
  federationErrors,
  nonFederatingBackendsSpec,
  unreachableBackendsSpec,
} from '../../api/errors/federation.js';
import { registerThenCommit, requireFederating } from '../federation/remote-members.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { json, jsonBody, type QualifiedId } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database, type Db } from '../../db/client.js';
import { teamStore } from '../teams/team-store.js';
import { enabledChannels, isOpenChannel, requireChannelRole } from './channel-permissions.js';
import type { TeamRole } from '../../../shared/db/schema.js';
import type { Config } from '../../../shared/config/index.js';
import { conversationJson } from './conversation-json.js';
import type { ConversationRow } from './conversation-store.js';
import { conversationBook } from './conversation-book.js';
import { invitedRole, newConv, requestedAccess, requestedAccessRoles, type NewConv } from './new-conv.js';
import { ROLE_ADMIN } from './roles.js';
import { announceCreatedEffect } from './announce-created.js';
import { ConvType } from '../../../shared/mls/group-id.js';
import { newGroupId } from '../mls/mls-conversation-row.js';
import { requireMls } from '../mls/mls-enabled.js';
import { guardLegalholdOnJoin } from '../legalhold/join-guard.js';
import { memberRow } from './member-data.js';
import { deps } from '../../api/deps.js';

/** The checks of who may create a conversation with whom (wire-server's order). */
async function checkCreation(c: Context<AppEnv>, db: Db, body: NewConv, invitees: QualifiedId[]): Promise<void> {
  const config = c.get('config');
  const domain = deps(c).domain;
  const maxSize = config.galley.settings.maxConvSize;
  // MLS members come by commit: wire refuses any list, even one naming only the creator.
  const listed = (body.users?.length ?? 0) + (body.qualified_users?.length ?? 0);
  if (body.protocol === 'mls' && listed > 0) throw new ApiError(galleyErrors.nonEmptyMemberList);
  if (invitees.length > maxSize - 1)
    throw new ApiError(galleyErrors.convSizeOutOfRange, `outside range [0, ${maxSize - 1}]`);
  const remote = invitees.filter((u) => u.domain !== domain);
  if (remote.length > 0 && !config.galley.enableFederation) throw new ApiError(federationErrors.federationNotEnabled);
  const me = self(c).user;
  const creator = await deps(c).users.account({ id: me, domain });
  if (creator === undefined || !creator.activated) throw new ApiError(galleyErrors.operationDenied);
  let outsiders = invitees;
  if (body.team !== undefined) {
    const role = await teamStore.roleOf(db, body.team.teamid, me);
    if (role === undefined) throw new ApiError(galleyErrors.noTeamMember);
    if (role === 'partner' && invitees.length > 1) throw new ApiError(galleyErrors.operationDenied);
    const roles = requestedAccessRoles(body);
    if (roles.length === 0) throw new ApiError(galleyErrors.accessDenied);
    const local = outsiders.filter((u) => u.domain === domain).map((u) => u.id);
    const teammates = await teamStore.membersAmong(db, body.team.teamid, local);
    outsiders = outsiders.filter((u) => u.domain !== domain || !teammates.has(u.id));
    if (outsiders.length > 0 && !roles.includes('non_team_member')) throw new ApiError(galleyErrors.noTeamMember);
    if (body.group_conv_type === 'channel') await requireChannelCreation(db, config, body.team.teamid, role, body);
  } else if (body.group_conv_type === 'channel') throw new ApiError(galleyErrors.operationDenied);
  const connected = await deps(c).users.connectedToAll({ id: me, domain }, outsiders);
  if (!connected) throw new ApiError(galleyErrors.notConnected);
  const joining = invitees.filter((u) => u.domain === domain).map((u) => u.id);
  await guardLegalholdOnJoin(db, config, { present: [me], joining });
  if (body.protocol === 'mls') requireMls(c);
  await requireFederating(c, body.protocol ?? 'proteus', invitees);
}

/** Channels: the team's channels feature on, MLS, and the roles its config allows to create (and open) them. */
async function requireChannelCreation(
  db: Db,
  config: Config,
  team: string,
  role: TeamRole,
  body: NewConv,
): Promise<void> {
  const channels = await enabledChannels(db, config, team);
  if (body.protocol !== 'mls') throw new ApiError(galleyErrors.notAnMlsConversation);
  requireChannelRole(channels, role, 'allowed_to_create_channels');
  if (isOpenChannel(requestedAccess(body))) requireChannelRole(channels, role, 'allowed_to_open_channels');
}

function newGroupRow(body: NewConv, domain: string, creator: string): ConversationRow {
  const id = crypto.randomUUID();
  const mls = body.protocol === 'mls';
  return {
    domain,
    id,
    type: 0,
    creator,
    name: body.name ?? null,
    access: requestedAccess(body),
    accessRole: requestedAccessRoles(body),
    team: body.team?.teamid ?? null,
    messageTimer: body.message_timer ?? null,
    receiptMode: mls ? 0 : (body.receipt_mode ?? null),
    protocol: mls ? 'mls' : 'proteus',
    groupId: mls ? newGroupId({ id, domain }, ConvType.regular) : null,
    epoch: 0,
    cipherSuite: null,
    epochTimestamp: null,
    cellsState: body.cells ? 'pending' : 'disabled',
    groupConvType: body.group_conv_type ?? 'group_conversation',
    // Only a channel has one, `everyone` unless asked otherwise (wire-server ignores it elsewhere).
    addPermission: body.group_conv_type === 'channel' ? (body.add_permission ?? 'everyone') : null,
    createdAt: Date.now(),
  };
}

const createdConversation = z.record(z.string(), z.unknown()).openapi('CreateGroupConversation');

export const createGroupConversation = endpoint(
  {
    name: 'create-group-conversation',
    method: 'post',
    path: '/conversations',
    request: jsonBody(newConv),
    errors: [
      galleyErrors.nonEmptyMemberList,
      galleyErrors.convSizeOutOfRange,
      galleyErrors.operationDenied,
      galleyErrors.noTeamMember,
      galleyErrors.channelsNotEnabled,
      galleyErrors.notAnMlsConversation,
      galleyErrors.accessDenied,
      galleyErrors.notConnected,
      legalholdErrors.missingConsent,
      mlsErrors.mlsNotEnabled,
      federationErrors.disabledForProtocol,
      nonFederatingBackendsSpec,
      unreachableBackendsSpec,
      ...FEDERATED_CALL_ERRORS,
    ],
    responses: {
      201: { description: 'Conversation created', ...json(createdConversation) },
    },
  },
  async (c) => {
    const body = c.req.valid('json');
    const version = c.get('apiVersion') ?? 0;
    if (version >= 3 && typeof body.access_role === 'string')
      throw new ApiError(commonErrors.badRequest, 'access_role: a list of access roles is expected');
    const db = database(c.env.DB);
    const domain = deps(c).domain;
    const me = { id: self(c).user, domain };
    const invitees = dedupe([
      ...(body.users ?? []).map((id) => ({ id, domain })),
      ...(body.qualified_users ?? []),
    ]).filter((u) => !(u.id === me.id && u.domain === domain));
    await checkCreation(c, db, body, invitees);

    const conv = newGroupRow(body, domain, me.id);
    const now = Date.now();
    // With skip_creator the creator stays outside (a channel's team admin manages it from there).
    const members = [
      ...(body.skip_creator === true ? [] : [memberRow(conv, me, ROLE_ADMIN, now)]),
      ...invitees.map((u) => memberRow(conv, u, invitedRole(body), now)),
    ];
    const announced = { statements: [], effects: [announceCreatedEffect(c.get('self'), conv, members, me)] };
    await registerThenCommit(
      c,
      conv,
      members,
      invitees,
      joinChanges(conversationBook.create(c.env, conv, members, domain), announced),
    );
    c.header('location', conv.id);
    return c.json(
      { ...conversationJson(conv, members, me, version), ...(version >= 4 ? { failed_to_add: [] } : {}) },
      201,
    );
  },
);

function dedupe(ids: QualifiedId[]): QualifiedId[] {
  const seen = new Set<string>();
  return ids.filter((u) => {
    const key = `${u.domain}/${u.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
