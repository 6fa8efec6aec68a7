// brig's federation API, declared once: each RPC's name, request and response, for the side that
// answers it (federation-api/*.ts) and the side that calls it.
import { z } from '@hono/zod-openapi';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { isSupportedSuite } from '../../../shared/mls/suites.js';
import { emptyResponse } from '../../federation/rpc.js';
import { rpcContract } from '../../federation/contract.js';
import { pubClient } from '../clients/client-json.js';
import { prekey } from '../../api/schemas/prekeys.js';
import { contact } from '../search/contacts.js';
import { userProfile } from '../users/user-json.js';

const clientId = z.string().regex(CLIENT_ID_PATTERN);
/** What one call may ask for: as many clients as a conversation can have. */
const MAX_CLIENTS = 2000;

export const userClientMap = z.record(z.string(), z.array(pubClient));
export const clientPrekey = z.object({ client: z.string(), prekey }).openapi('ClientPrekey');
export const prekeyBundle = z.object({ user: z.uuid(), clients: z.array(clientPrekey) }).openapi('PrekeyBundle');
/** `{user: {client: prekey or null}}`: one domain's part of a multi-user claim. */
export const userClientPrekeys = z.record(z.string(), z.record(z.string(), prekey.nullable()));

export const getUserClientsRpc = rpcContract({
  component: 'brig',
  rpc: 'get-user-clients',
  request: z.object({ users: z.array(z.uuid()).max(MAX_CLIENTS) }),
  response: userClientMap,
});
export const claimPrekeyRpc = rpcContract({
  component: 'brig',
  rpc: 'claim-prekey',
  request: z.tuple([z.uuid(), clientId]),
  response: clientPrekey.nullable(),
});
export const claimPrekeyBundleRpc = rpcContract({
  component: 'brig',
  rpc: 'claim-prekey-bundle',
  request: z.uuid(),
  response: prekeyBundle,
});
export const claimMultiPrekeyBundleRpc = rpcContract({
  component: 'brig',
  rpc: 'claim-multi-prekey-bundle',
  request: z
    .record(z.uuid(), z.array(clientId))
    .refine((m) => Object.values(m).reduce((n, cs) => n + cs.length, 0) <= MAX_CLIENTS, 'too many clients'),
  response: userClientPrekeys,
});

export const getUserByHandleRpc = rpcContract({
  component: 'brig',
  rpc: 'get-user-by-handle',
  request: z.string(),
  response: userProfile.nullable(),
});
export const getUsersByIdsRpc = rpcContract({
  component: 'brig',
  rpc: 'get-users-by-ids',
  request: z.array(z.uuid()).max(500),
  response: z.array(userProfile),
});
export const searchUsersRpc = rpcContract({
  component: 'brig',
  rpc: 'search-users',
  request: z
    .object({
      term: z.string().max(256),
      // wire's SearchRequest: the searcher's team, and the teams of this backend the caller may see
      from: z.uuid().nullish(),
      onlyInTeams: z.array(z.uuid()).nullish(),
    })
    .loose(),
  response: z.object({
    contacts: z.array(contact),
    searchPolicy: z.enum(['no_search', 'exact_handle_search', 'full_search']),
  }),
});

export const cipherSuite = z.number().int().refine(isSupportedSuite, 'unsupported cipher suite');
/** wire's ClientInfo: the client, its signature key for the scheme asked about, whether it has packages. */
const clientInfo = z
  .object({ id: z.string(), mls_signature_key: z.string().optional(), mls: z.boolean() })
  .openapi('ClientInfo');
const bundleEntry = z
  .object({
    user: z.uuid(),
    domain: z.string(),
    client: z.string(),
    key_package_ref: z.string(),
    key_package: z.string(),
  })
  .openapi('KeyPackageBundleEntry');
export const keyPackageBundle = z.object({ key_packages: z.array(bundleEntry) }).openapi('KeyPackageBundle');

/** From v1 the request names a cipher suite, before it a signature scheme (read by the version the caller speaks). */
export const getMlsClientsRpc = rpcContract({
  component: 'brig',
  rpc: 'get-mls-clients',
  request: z.record(z.string(), z.unknown()).openapi('MLSClientsRequest'),
  response: z.array(clientInfo),
});
export const claimKeyPackagesRpc = rpcContract({
  component: 'brig',
  rpc: 'claim-key-packages',
  request: z.object({ claimant: z.uuid(), target: z.uuid(), cipher_suite: cipherSuite }),
  response: keyPackageBundle.nullable(),
});

const remoteAction = z.enum(['RemoteConnect', 'RemoteRescind']);
/** What a user did about a user of the receiving backend. */
export const sendConnectionActionRpc = rpcContract({
  component: 'brig',
  rpc: 'send-connection-action',
  request: z.object({ from: z.uuid(), from_team: z.uuid().nullish(), to: z.uuid(), action: remoteAction }),
  response: z.union([
    z.object({ tag: z.literal('NewConnectionResponseOk'), contents: remoteAction.nullable() }),
    z.object({ tag: z.literal('NewConnectionResponseUserNotActivated') }),
    z.object({ tag: z.literal('NewConnectionResponseNotFederating') }),
  ]),
});
/** A notification: a user of the calling backend was deleted, with those of its connections here. */
export const onUserDeletedConnectionsRpc = rpcContract({
  component: 'brig',
  rpc: 'on-user-deleted-connections',
  request: z
    .object({ user: z.uuid(), connections: z.array(z.uuid()).min(1).max(1000) })
    .openapi('UserDeletedConnectionsNotification'),
  response: emptyResponse,
});
