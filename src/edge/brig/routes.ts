import type { Endpoint } from '../api/endpoint.js';
import { searchTeam } from './search/team-search.js';
import { upgradePersonalToTeam } from './accounts/upgrade-to-team.js';
import { refreshIndex, searchContacts } from './search/search-routes.js';
import { acceptInvitation, invitationByEmail, invitationInfo } from './invitations/invitee.js';
import { createInvitation, deleteInvitation, getInvitation, listInvitations } from './invitations/team-invitations.js';
import { getActivate, getActivationCode, postActivate, sendActivation } from './accounts/activate.js';
import {
  createUserNoVerify,
  deleteUserNoAuth,
  getUserStatus,
  lookupUsers,
  putUserStatus,
} from './accounts/internal-users.js';
import { register } from './accounts/register.js';
import { putSsoId } from './users/internal-sso-id.js';
import { changeEmail } from './accounts/change-email.js';
import { removeEmail } from './accounts/remove-email.js';
import { updateUserEmail } from './accounts/update-user-email.js';
import { deleteSelf, verifyDelete } from './accounts/delete-self.js';
import {
  completePasswordReset,
  completePasswordResetByKey,
  getPasswordResetCode,
  startPasswordReset,
} from './accounts/password-reset.js';
import { getApiVersion } from './api-version.js';
import { claimKeyPackages } from './mls/claim-routes.js';
import {
  countKeyPackages,
  deleteKeyPackages,
  replaceKeyPackages,
  uploadKeyPackages,
} from './mls/key-package-routes.js';
import { logout, postAccess } from './auth/access.js';
import { listCookies, removeCookies } from './auth/cookies.js';
import { login } from './auth/login.js';
import { getVerificationCode, sendVerificationCode } from './auth/verification-code.js';
import { federationApiVersion } from './federation-api/api-version.js';
import { getUserByHandle, getUsersByIds, searchUsers } from './federation-api/users.js';
import { onUserDeletedConnections, sendConnectionAction } from './federation-api/connections.js';
import { getNotFullyConnectedBackends } from './federation-api/backends.js';
import { claimKeyPackagesForRemote, getMlsClients } from './federation-api/mls.js';
import {
  claimMultiPrekeyBundle,
  claimPrekey,
  claimPrekeyBundle,
  getUserClientsForRemote,
} from './federation-api/clients.js';
import {
  addFederationRemote,
  deleteFederationRemote,
  getFederationRemotes,
  updateFederationRemote,
} from './federation/remotes.js';
import {
  addFederationRemoteTeam,
  deleteFederationRemoteTeam,
  getFederationRemoteTeams,
} from './federation/remote-teams.js';
import { changePassword, headSelfPassword } from './password/self-password.js';
import {
  clearProperties,
  deleteProperty,
  getProperty,
  listPropertiesValues,
  listPropertyKeys,
  setProperty,
} from './properties/properties.js';
import { getStatus } from './status.js';
import {
  createConnection,
  createConnectionUnqualified,
  getConnection,
  getConnectionUnqualified,
  listConnections,
  listLocalConnections,
  updateConnection,
  updateConnectionUnqualified,
} from './connections/connections.js';
import { addClient } from './clients/add-client.js';
import { getClientCapabilities, getClientCapabilitiesV6, getClientCapabilitiesV7 } from './clients/capabilities.js';
import {
  getClientPrekey,
  getClientPrekeyUnqualified,
  getUserPrekeys,
  getUserPrekeysUnqualified,
  listPrekeys,
  listPrekeysUnqualified,
  listPrekeysV3,
} from './clients/prekey-routes.js';
import { deleteClient, getClient, getClientPrekeyIds, listClients, putClient } from './clients/self-clients.js';
import {
  getUserClient,
  getUserClients,
  getUserClientsUnqualified,
  getUserClientUnqualified,
  listUsersClients,
  listUsersClientsV0,
  listUsersClientsV1,
} from './clients/user-clients.js';
import { getSystemSettings, getSystemSettingsUnauthorized } from './system-settings.js';
import { getCallsConfig, getCallsConfigV2 } from './calling/calls-config.js';
import { createAuthorizationCode } from './oauth/authorization-codes.js';
import { createChallenge, verifyChallengeAnonymously, verifyChallengeForTeam } from './domains/challenges.js';
import {
  authorizeTeam,
  deleteRegisteredDomain,
  getRegisteredDomains,
  updateTeamInvite,
} from './domains/team-routes.js';
import {
  deleteDomainRegistration,
  domainTransitions,
  getDomainRegistrationInternal,
  putDomainRegistration,
} from './domains/internal-routes.js';
import { getDomainRegistration, updateDomainRedirect } from './domains/redirect-routes.js';
import { createAccessToken as createDpopAccessToken, getNonce, headNonce } from './e2ei/access-token.js';
import { deleteSession, getApplications, revokeAccountAccess, revokeAccountAccessV6 } from './oauth/applications.js';
import {
  deleteOAuthClient,
  getOAuthClient,
  getOAuthClientInternal,
  registerOAuthClient,
  updateOAuthClient,
} from './oauth/oauth-clients.js';
import { createAccessToken, revokeRefreshToken } from './oauth/token.js';
import { checkHandle, checkHandles, checkHandlesV6, checkHandleV6, putHandle } from './users/handles.js';
import { changePhone, removePhone, sendLoginCode } from './users/phone.js';
import { onboarding } from './users/onboarding.js';
import { getRichInfo, putRichInfo } from './rich-info/rich-info-routes.js';
import {
  getHandleInfoUnqualified,
  getSupportedProtocols,
  getUser,
  getUserByHandleV1,
  getUserUnqualified,
  listUsersUnqualified,
  listUsersV3,
  listUsersV4,
} from './users/profiles.js';
import { getSelf, putLocale, putSelf, putSupportedProtocols } from './users/self.js';
import { getConsent, putConsent } from './consent/consent-routes.js';
import {
  claimBotUsersPrekeys,
  getBotClient,
  getBotSelf,
  getBotUserClients,
  listBotPrekeys,
  listBotUsers,
  updateBotPrekeys,
} from './bots/bot-api-routes.js';

export const brigPublic: Endpoint[] = [
  getBotSelf,
  getBotClient,
  listBotPrekeys,
  updateBotPrekeys,
  claimBotUsersPrekeys,
  listBotUsers,
  getBotUserClients,
  uploadKeyPackages,
  replaceKeyPackages,
  deleteKeyPackages,
  countKeyPackages,
  claimKeyPackages,
  searchContacts,
  searchTeam,
  upgradePersonalToTeam,
  // invitations: the fixed /teams/invitations/... paths before galley's /teams/{tid}/...
  invitationInfo,
  invitationByEmail,
  acceptInvitation,
  createInvitation,
  listInvitations,
  getInvitation,
  deleteInvitation,
  getApiVersion,
  getSystemSettingsUnauthorized,
  getSystemSettings,
  // accounts
  register,
  postActivate,
  getActivate,
  sendActivation,
  changeEmail,
  removeEmail,
  updateUserEmail,
  startPasswordReset,
  completePasswordReset,
  // after /password-reset/complete, which its path matches too
  completePasswordResetByKey,
  deleteSelf,
  verifyDelete,
  // authentication
  login,
  sendLoginCode,
  postAccess,
  logout,
  listCookies,
  removeCookies,
  sendVerificationCode,
  // the user
  getSelf,
  putSelf,
  putLocale,
  putSupportedProtocols,
  changePhone,
  removePhone,
  onboarding,
  getConsent,
  putConsent,
  headSelfPassword,
  changePassword,
  putHandle,
  checkHandle,
  checkHandleV6,
  checkHandles,
  checkHandlesV6,
  // before /users/{domain}/{uid}, which the path would match too
  getRichInfo,
  // older versions' /users/handles/{handle}, /users/{uid}/clients and /users/{uid}/prekeys too
  getHandleInfoUnqualified,
  getUserClientsUnqualified,
  getUserPrekeysUnqualified,
  getUserByHandleV1,
  getUserUnqualified,
  listUsersUnqualified,
  getUser,
  getSupportedProtocols,
  listUsersV3,
  listUsersV4,
  // clients and prekeys
  addClient,
  listClients,
  getClient,
  putClient,
  deleteClient,
  getClientPrekeyIds,
  getClientCapabilitiesV6,
  getClientCapabilitiesV7,
  getClientCapabilities,
  // end-to-end identity (the GET route answers HEAD too)
  getNonce,
  headNonce,
  createDpopAccessToken,
  getUserClients,
  getUserClient,
  getUserClientUnqualified,
  listUsersClients,
  listUsersClientsV0,
  listUsersClientsV1,
  getUserPrekeys,
  getClientPrekey,
  getClientPrekeyUnqualified,
  listPrekeys,
  listPrekeysV3,
  listPrekeysUnqualified,
  // connections
  createConnection,
  updateConnection,
  getConnection,
  listConnections,
  createConnectionUnqualified,
  updateConnectionUnqualified,
  getConnectionUnqualified,
  listLocalConnections,
  // domain registration
  createChallenge,
  verifyChallengeAnonymously,
  verifyChallengeForTeam,
  authorizeTeam,
  updateTeamInvite,
  updateDomainRedirect,
  getDomainRegistration,
  getRegisteredDomains,
  deleteRegisteredDomain,
  // OAuth
  getOAuthClient,
  createAuthorizationCode,
  createAccessToken,
  revokeRefreshToken,
  getApplications,
  revokeAccountAccess,
  revokeAccountAccessV6,
  deleteSession,
  // calling
  getCallsConfigV2,
  getCallsConfig,
  // properties
  setProperty,
  getProperty,
  listPropertyKeys,
  listPropertiesValues,
  deleteProperty,
  clearProperties,
];

export const brigInternal: Endpoint[] = [
  refreshIndex,
  putDomainRegistration,
  getDomainRegistrationInternal,
  deleteDomainRegistration,
  ...domainTransitions,
  registerOAuthClient,
  getOAuthClientInternal,
  updateOAuthClient,
  deleteOAuthClient,
  getStatus,
  getFederationRemotes,
  addFederationRemote,
  addFederationRemoteTeam,
  getFederationRemoteTeams,
  deleteFederationRemoteTeam,
  updateFederationRemote,
  deleteFederationRemote,
  getActivationCode,
  getVerificationCode,
  createUserNoVerify,
  putUserStatus,
  getUserStatus,
  putSsoId,
  lookupUsers,
  deleteUserNoAuth,
  getPasswordResetCode,
  putRichInfo,
  // the federation API (the federator calls it for remote backends)
  federationApiVersion,
  getUserByHandle,
  getUsersByIds,
  searchUsers,
  getUserClientsForRemote,
  claimPrekey,
  claimPrekeyBundle,
  claimMultiPrekeyBundle,
  sendConnectionAction,
  onUserDeletedConnections,
  getNotFullyConnectedBackends,
  getMlsClients,
  claimKeyPackagesForRemote,
];
