import { database } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { publishEffect } from '../../events/publish.js';
import { userEvents } from '../../events/user-events.js';
import { federationRpc } from '../../federation/rpc.js';
import { connectionBook, forgetSidesEffect } from '../connections/connection-book.js';
import { afterRemoteAction, writeLocalSide } from '../connections/remote-connections.js';
import { reactionTo } from '../connections/remote-rules.js';
import { federationWith } from '../federation/federating.js';
import { userStore } from '../users/user-store.js';
import { sendConnectionActionRpc, onUserDeletedConnectionsRpc } from './contract.js';

/**
 * A remote user connected to, or withdrew from, a user of this backend: the local side moves on
 * (and its user hears of it), and the answer says whether the local user wants the connection too.
 */
export const sendConnectionAction = federationRpc(
  { ...sendConnectionActionRpc, description: "The local user's reaction, or why there is none" },
  async (c, req, { origin }) => {
    const db = database(c.env.DB);
    const remote = await federationWith(c.get('config'), db, origin);
    const restriction = remote?.restriction;
    const teams = restriction?.tag === 'restrict_by_team' ? restriction.value : undefined;
    if (teams !== undefined && !(req.from_team != null && teams.includes(req.from_team)))
      return { tag: 'NewConnectionResponseNotFederating' as const };
    const to = await userStore.byId(db, req.to);
    if (to === undefined || !to.activated || to.status !== 'active')
      return { tag: 'NewConnectionResponseUserNotActivated' as const };
    const other = { id: req.from, domain: origin };
    const existing = (await connectionBook.get(c.env, to.id, origin, req.from))?.status;
    const next = afterRemoteAction(existing, req.action);
    if (next !== undefined && next !== existing) await writeLocalSide(c, to.id, other, next);
    return { tag: 'NewConnectionResponseOk' as const, contents: reactionTo(next) ?? null };
  },
);

/**
 * A remote user was deleted: the local users connected to them hear `user.delete`, and every
 * listed local user's connection with them goes. Delivered again, it finds the connections gone
 * and tells nobody (as wire's brig); the first delivery's pending effects told them.
 */
export const onUserDeletedConnections = federationRpc(
  { ...onUserDeletedConnectionsRpc, description: 'Taken' },
  async (c, req, { origin }) => {
    const connected = await connectionBook.acceptingOf(c.env, req.connections, origin, req.user);
    const recipients = [...connected].map((user) => ({ user }));
    const forgotten = forgetSidesEffect({ users: req.connections, domain: origin, to: req.user, at: Date.now() });
    const told = recipients.length === 0 ? [] : [publishEffect(recipients, userEvents.delete(req.user, origin))];
    await commitChange(c.env, c.get('config'), { statements: [], effects: [forgotten, ...told] });
    return {};
  },
);
