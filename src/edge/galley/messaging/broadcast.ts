import { fanOutOtr } from '../../../objects/conversation/fan-out.js';
import { NotificationShards } from '../../events/shards.js';
import { classify } from '../../../objects/conversation/recipients.js';
import { userKey } from '../../../objects/conversation/members-cache.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { clientStore } from '../../brig/clients/client-store.js';
import { contactsOf } from '../../brig/users/contacts.js';
import { userStore } from '../../brig/users/user-store.js';
import { database } from '../../db/client.js';
import { teamStore } from '../teams/team-store.js';
import { messageSendingStatus, readQualifiedOtr } from './proteus.js';
import { z } from '@hono/zod-openapi';

/**
 * `POST /broadcast/proteus/messages`: a message to the sender's team and contacts (availability,
 * profile changes). Each recipient sees it in their own self conversation.
 */
export const postBroadcast = endpoint(
  {
    name: 'post-proteus-broadcast',
    method: 'post',
    path: '/broadcast/proteus/messages',
    request: { body: { required: true, content: { 'application/x-protobuf': { schema: z.string().openapi({ format: 'binary' }) } } } },
    errors: [commonErrors.badRequest, galleyErrors.noTeam, galleyErrors.tooManyUsersToBroadcast],
    responses: {
      201: { description: 'Message sent', ...json(messageSendingStatus) },
      412: { description: 'Missing clients: nothing was sent', ...json(messageSendingStatus) },
    },
  },
  async (c) => {
    const message = await readQualifiedOtr(c);
    const config = c.get('config');
    const { settings } = config.galley;
    const domain = config.brig.optSettings.setFederationDomain;
    const me = self(c);
    const db = database(c.env.DB);
    const user = await userStore.byId(db, me.user);
    if (user?.team === null || user?.team === undefined) throw new ApiError(galleyErrors.noTeam);
    const limit = Math.min(settings.maxTeamSize, settings.maxFanoutSize);
    const addressed = new Set(message.recipients.filter((r) => r.domain === domain).map((r) => r.user));
    if (addressed.size > limit) throw new ApiError(galleyErrors.tooManyUsersToBroadcast);
    const team = await teamStore.memberIds(db, user.team, limit + 1);
    if (team.length > limit) throw new ApiError(galleyErrors.tooManyUsersToBroadcast);
    const audience = [...new Set([me.user, ...team, ...(await contactsOf(db, me.user))])];
    const clients = new Map<string, Set<string>>(audience.map((u) => [userKey(domain, u), new Set<string>()]));
    for (const cl of await clientStore.listMany(db, audience)) clients.get(userKey(domain, cl.user))!.add(cl.id);

    const sender = { id: me.user, domain, client: message.sender, connection: me.connection };
    const cls = classify({ exists: true, protocol: 'proteus', team: user.team, clients }, sender, message.recipients, message.strategy);
    const time = new Date().toISOString();
    const status = { time, missing: cls.missing, redundant: cls.redundant, deleted: cls.deleted, failed_to_send: {}, failed_to_confirm_clients: {} };
    if (Object.keys(cls.missing).length > 0) return c.json(status, 412);
    await fanOutOtr(new NotificationShards(c.env), cls.deliver, {
      conversationOf: (r) => ({ id: r.user, domain }),
      sender,
      blob: message.blob,
      transient: message.transient,
      time,
      ttlSeconds: config.gundeck.settings.notificationTTL,
      localDomain: domain,
    });
    return c.json(status, 201);
  },
);
