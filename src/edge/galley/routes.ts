import type { Endpoint } from '../api/endpoint.js';
import { createGroupConversation } from './conversations/create.js';
import {
  getConversation,
  getConversationLegalholdAlias,
  getConversationsUnqualified,
  getConversationUnqualified,
  getRoles,
  listConversationIds,
  listConversationIdsUnqualified,
  listConversations,
  listConversationsV1,
} from './conversations/read-routes.js';
import { checkCode, joinByCode, joinById, joinPreview } from './conversations/guest-join.js';
import { createCode, deleteCode, getCode } from './conversations/guest-links.js';
import {
  addMembers,
  addMembersUnqualified,
  addMembersUnqualified2,
  removeMember,
  removeMemberUnqualified,
  updateOtherMember,
  updateOtherMemberUnqualified,
  updateSelfMember,
  updateSelfMemberUnqualified,
} from './conversations/members.js';
import { getSelfMember, getSelfMemberUnqualified } from './conversations/self-member.js';
import { postBroadcast, postLegacyBroadcast } from './messaging/broadcast.js';
import { postLegacyOtrMessage } from './messaging/legacy-otr.js';
import { postProteusMessage } from './messaging/proteus.js';
import { createOne2One, createOne2OneV6 } from './conversations/one2one-routes.js';
import { createSelfConversation } from './conversations/self-conversation.js';
import { deleteTeamConversation } from './conversations/delete.js';
import { featureInternalEndpoints } from './features/internal-routes.js';
import { onConversationCreated } from './federation/conversation-created.js';
import { onConversationUpdated } from './federation/conversation-updated.js';
import { onMessageSent } from './federation/message-sent.js';
import { leaveConversation } from './federation/leave-conversation.js';
import { onConnectionRemoved } from './federation/connection-removed.js';
import { mlsWelcome, onMlsMessageSent } from './federation/mls-received.js';
import { sendMlsCommitBundle, sendMlsMessage } from './federation/send-mls-message.js';
import { queryGroupInfo } from './federation/query-group-info.js';
import { onClientRemoved } from './federation/client-removed.js';
import { getConversations } from './federation/get-conversations.js';
import { getOne2OneConversation } from './federation/one2one.js';
import {
  deleteSubConversationForRemote,
  getSubConversationForRemote,
  leaveSubConversationForRemote,
} from './federation/subconversations.js';
import { updateConversation } from './federation/update-conversation.js';
import { onTypingIndicatorUpdated, updateTypingIndicator } from './federation/typing.js';
import { onUserDeletedConversations } from './federation/user-deleted-conversations.js';
import { sendMessage } from './federation/send-message.js';
import { featureEndpoints } from './features/routes.js';
import { getTeamMember, getTeamMembers, getTeamMembersByIds, updateTeamMember } from './teams/member-routes.js';
import { getTeam, getTeamSize, updateTeam } from './teams/team-routes.js';
import { addTeamMember, createNonBindingTeam, getTeams } from './teams/legacy-team-routes.js';
import { getTeamNotifications } from './teams/team-notifications.js';
import { getTeamConversation, getTeamConversationRoles, getTeamConversations } from './teams/team-conversations.js';
import { getSearchVisibility, setSearchVisibility } from './teams/search-visibility.js';
import { getTeamMembersCsv } from './teams/members-csv.js';
import { removeTeamMember } from './teams/remove-member.js';
import { deleteTeam } from './teams/delete-team.js';
import { teamInternalEndpoints } from './teams/internal-team-routes.js';
import { legalholdSettingsEndpoints } from './legalhold/settings-routes.js';
import { getBotConversation, postBotMessage } from './bots/bot-routes.js';
import { legalholdUserEndpoints } from './legalhold/user-routes.js';
import { getMlsPublicKeys } from './mls/public-keys.js';
import { postCommitBundle } from './mls/commit-bundles.js';
import { postMlsMessage } from './mls/messages.js';
import { resetConversation } from './mls/reset-conversation.js';
import { updateConversationProtocol } from './mls/protocol-update.js';
import {
  deleteSubconversation,
  getSubconversation,
  getSubconversationGroupInfo,
  leaveSubconversation,
} from './mls/subconversations.js';
import { getGroupInfo } from './mls/group-info.js';
import { getMlsSelfConversation, getMlsSelfConversationV5 } from './mls/mls-self.js';
import { getMlsOne2One, getMlsOne2OneV5, getMlsOne2OneV6 } from './mls/mls-one2one.js';
import {
  renameConversation,
  renameConversationDeprecated,
  renameConversationUnqualified,
  typing,
  typingUnqualified,
  updateAccess,
  updateAccessUnqualified,
  updateAccessV2,
  updateAddPermission,
  updateMessageTimer,
  updateMessageTimerUnqualified,
  updateReceiptMode,
  updateReceiptModeUnqualified,
} from './conversations/updates.js';

export const galleyPublic: Endpoint[] = [
  getMlsPublicKeys,
  postCommitBundle,
  postMlsMessage,
  resetConversation,
  updateConversationProtocol,
  getSubconversationGroupInfo,
  leaveSubconversation,
  getSubconversation,
  deleteSubconversation,
  // order matters where paths overlap: /conversations/self and /list-ids before /{domain}/{id}
  createSelfConversation,
  getMlsSelfConversationV5,
  getMlsSelfConversation,
  getMlsOne2OneV5,
  getMlsOne2OneV6,
  getMlsOne2One,
  createOne2OneV6,
  createOne2One,
  createGroupConversation,
  checkCode,
  joinPreview,
  joinByCode,
  joinById,
  listConversationIds,
  listConversations,
  listConversationsV1,
  // older versions' GET /conversations/ids before GET /conversations/{cnv}
  listConversationIdsUnqualified,
  getConversationsUnqualified,
  getRoles,
  // older versions' /conversations/{cnv}/self before /conversations/{cnv_domain}/{cnv}
  getSelfMemberUnqualified,
  createCode,
  getCode,
  deleteCode,
  getConversation,
  getConversationUnqualified,
  getConversationLegalholdAlias,
  getGroupInfo,
  addMembers,
  addMembersUnqualified,
  addMembersUnqualified2,
  removeMember,
  removeMemberUnqualified,
  updateOtherMember,
  updateOtherMemberUnqualified,
  updateSelfMember,
  updateSelfMemberUnqualified,
  getSelfMember,
  renameConversation,
  renameConversationUnqualified,
  renameConversationDeprecated,
  updateMessageTimer,
  updateMessageTimerUnqualified,
  updateReceiptMode,
  updateReceiptModeUnqualified,
  updateAccess,
  updateAccessV2,
  updateAccessUnqualified,
  updateAddPermission,
  typing,
  typingUnqualified,
  // /teams/{tid}/conversations/roles before /teams/{tid}/conversations/{cid}
  getTeamConversations,
  getTeamConversationRoles,
  getTeamConversation,
  deleteTeamConversation,
  postProteusMessage,
  postLegacyOtrMessage,
  postBroadcast,
  postLegacyBroadcast,
  ...featureEndpoints,
  // /teams/notifications before /teams/{tid}
  getTeamNotifications,
  createNonBindingTeam,
  getTeams,
  getTeam,
  updateTeam,
  deleteTeam,
  getTeamSize,
  getTeamMembers,
  getTeamMembersCsv,
  getTeamMember,
  removeTeamMember,
  getTeamMembersByIds,
  updateTeamMember,
  addTeamMember,
  getSearchVisibility,
  setSearchVisibility,
  // /teams/{tid}/legalhold/settings and /consent before /teams/{tid}/legalhold/{uid}
  ...legalholdSettingsEndpoints,
  ...legalholdUserEndpoints,
  getBotConversation,
  postBotMessage,
];

export const galleyInternal: Endpoint[] = [
  ...featureInternalEndpoints,
  ...teamInternalEndpoints,
  // the federation API (the federator calls it for remote backends)
  onConversationCreated,
  onConversationUpdated,
  sendMessage,
  onMessageSent,
  leaveConversation,
  onConnectionRemoved,
  mlsWelcome,
  onMlsMessageSent,
  sendMlsMessage,
  sendMlsCommitBundle,
  queryGroupInfo,
  onClientRemoved,
  getConversations,
  getOne2OneConversation,
  getSubConversationForRemote,
  deleteSubConversationForRemote,
  leaveSubConversationForRemote,
  updateConversation,
  updateTypingIndicator,
  onTypingIndicatorUpdated,
  onUserDeletedConversations,
];
