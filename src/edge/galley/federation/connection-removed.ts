// on-connection-removed: a backend this one federates with stopped federating with another one.
// Conversations owned here cannot hold users of both any more; local users who share
// conversations with either hear `federation.connectionRemoved` before and after the clean-up.
import { z } from '@hono/zod-openapi';
import { normalizeDomain } from '../../../shared/domain.js';
import { commonErrors } from '../../api/errors/common.js';
import { ApiError } from '../../api/errors/api-error.js';
import { publish } from '../../events/publish.js';
import { emptyResponse, federationRpc } from '../../federation/rpc.js';
import { localUsersAlongside, separateInConversations } from './defederation.js';
import { deps } from '../../api/deps.js';
import { rpcContract, notificationTo } from '../../federation/contract.js';
import { forEveryVersion } from '../../federation/outbox.js';

const onConnectionRemovedRpc = rpcContract({
  component: 'galley',
  rpc: 'on-connection-removed',
  request: z.string().openapi({ description: 'The domain the calling backend no longer federates with' }),
  response: emptyResponse,
});

export const onConnectionRemoved = federationRpc(
  { ...onConnectionRemovedRpc, description: 'Taken' },
  async (c, body, { origin }) => {
    const target = normalizeDomain(body);
    if (target === undefined) throw new ApiError(commonErrors.badRequest, 'not a domain');
    const config = c.get('config');
    if (target === deps(c).domain || !(await deps(c).users.federatesWith(target))) return {};
    const pair: [string, string] = [origin, target];
    const recipients = (await localUsersAlongside(c.env, config, pair)).map((user) => ({ user }));
    const event = { type: 'federation.connectionRemoved', domains: pair };
    await publish(c.env, config, recipients, event);
    await separateInConversations(c.env, config, pair);
    await publish(c.env, config, recipients, event);
    return {};
  },
);

/** The notifications telling the other remotes that this backend no longer federates with `domain`. */
export const connectionRemovedNotifications = (domain: string, otherRemotes: readonly string[]) =>
  otherRemotes.map((remote) => notificationTo(onConnectionRemovedRpc, remote, forEveryVersion(domain)));
