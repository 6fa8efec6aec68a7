// The legal hold device on brig's side: a client of type `legalhold` that galley adds when the
// user approves and removes when legal hold ends (nobody can add or delete one by hand), the
// events its user's contacts get, and the cookie its service logs in with.
import type { Config } from '../../../shared/config/index.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { zauthKeys } from '../../auth/keys.js';
import { runBatch, type Db } from '../../db/client.js';
import { publish } from '../../events/publish.js';
import { clientsChanged, teamMemberIds } from '../../galley/face.js';
import { forgetClients } from '../../gundeck/face.js';
import { issueCookie, cookieStore } from '../auth/cookie-store.js';
import { clientEvents } from '../clients/client-events.js';
import { clientIdFromLastKey } from '../clients/client-id.js';
import { LEGALHOLD_CONSENT } from '../clients/client-json.js';
import { clientStore, type ClientRow } from '../clients/client-store.js';
import { prekeyStore } from '../clients/prekey-store.js';
import { keyPackageStore } from '../mls/key-package-store.js';
import { contactsOf } from '../users/contacts.js';
import { legalholdEvents } from './legalhold-events.js';

interface Prekey {
  id: number;
  key: string;
}

/** The most team members told of a member's legal hold (wire leaves the team out beyond it). */
const TEAM_AUDIENCE_LIMIT = 2000;

/** Who hears of a user's legal hold: the user, their accepted connections here, their team. */
async function audience(db: Db, config: Config, user: string, team: string | null): Promise<{ user: string }[]> {
  const domain = config.brig.optSettings.setFederationDomain;
  const contacts = (await contactsOf(db, { id: user, domain })).filter((u) => u.domain === domain).map((u) => u.id);
  const members = team === null ? [] : await teamMemberIds(db, team, TEAM_AUDIENCE_LIMIT + 1);
  const team_ = members.length > TEAM_AUDIENCE_LIMIT ? [] : members;
  return [...new Set([user, ...contacts, ...team_])].map((u) => ({ user: u }));
}

/** The client id a device with this last prekey will have (the request event names it in advance). */
export const legalholdClientId = (lastPrekey: Prekey): Promise<string> => clientIdFromLastKey(lastPrekey.key);

export async function announceLegalholdRequest(
  env: Env,
  config: Config,
  db: Db,
  o: { user: string; team: string; lastPrekey: Prekey },
): Promise<void> {
  const client = await legalholdClientId(o.lastPrekey);
  const event = legalholdEvents.request(o.user, o.lastPrekey, client);
  await publish(env, config, await audience(db, config, o.user, o.team), event);
}

/** Adds the device (replacing an older one); its id. */
export async function addLegalholdDevice(
  env: Env,
  config: Config,
  db: Db,
  o: { user: string; team: string; prekeys: readonly Prekey[]; lastPrekey: Prekey; origin?: AccessClaims },
): Promise<string> {
  const id = await legalholdClientId(o.lastPrekey);
  const replaced = (await clientStore.list(db, o.user)).filter((c) => c.type === 'legalhold' && c.id !== id);
  const row: ClientRow = {
    user: o.user,
    id,
    type: 'legalhold',
    class: 'legalhold',
    label: null,
    model: null,
    cookie: null,
    capabilities: [LEGALHOLD_CONSENT],
    mlsPublicKeys: {},
    createdAt: Date.now(),
    lastActive: null,
  };
  await runBatch(db, [
    clientStore.upsert(db, row),
    ...prekeyStore.upsert(db, o.user, id, [...o.prekeys, o.lastPrekey]),
    ...replaced.flatMap((old) => dropClient(db, o.user, old.id)),
  ]);
  await forgetClients(
    env,
    config,
    o.user,
    replaced.map((old) => old.id),
  );
  await clientsChanged(env, db, { id: o.user, domain: config.brig.optSettings.setFederationDomain });
  const own = [{ user: o.user }];
  for (const old of replaced) await publish(env, config, own, clientEvents.remove(old.id), { origin: o.origin });
  await publish(env, config, own, clientEvents.add(row), { origin: o.origin });
  await publish(env, config, await audience(db, config, o.user, o.team), legalholdEvents.enable(o.user));
  return id;
}

const dropClient = (db: Db, user: string, client: string) => [
  clientStore.delete(db, user, client),
  prekeyStore.deleteAll(db, user, client),
  keyPackageStore.deleteClient(db, user, client),
];

/** Removes the user's legal hold devices and their service's cookies; contacts hear it either way. */
export async function removeLegalholdDevices(
  env: Env,
  config: Config,
  db: Db,
  o: { user: string; team: string },
): Promise<void> {
  const gone = (await clientStore.list(db, o.user)).filter((c) => c.type === 'legalhold').map((c) => c.id);
  await runBatch(db, [...gone.flatMap((id) => dropClient(db, o.user, id)), cookieStore.revokeLegalhold(db, o.user)]);
  await forgetClients(env, config, o.user, gone);
  const me = { id: o.user, domain: config.brig.optSettings.setFederationDomain };
  await clientsChanged(env, db, me, { config, targets: gone.map((client) => ({ ...me, client })) });
  for (const id of gone) await publish(env, config, [{ user: o.user }], clientEvents.remove(id));
  await publish(env, config, await audience(db, config, o.user, o.team), legalholdEvents.disable(o.user));
}

/** A cookie for the user's legal hold service: its access tokens reach only what the device needs. */
export async function legalholdCookie(env: Env, config: Config, db: Db, user: string): Promise<string> {
  const keys = await zauthKeys(env, config.brig.zauth.keyIndex);
  return (await issueCookie(db, keys, config, user, { kind: 'persistent', legalhold: true })).token;
}
