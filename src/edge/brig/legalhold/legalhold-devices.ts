// The legal hold device on brig's side: a client of type `legalhold` that galley adds when the
// user approves and removes when legal hold ends (nobody can add or delete one by hand), the
// events its user's contacts get, and the cookie its service logs in with.
import { claimStandingChangedEffect } from '../clients/account-object.js';
import { type Config, localDomain } from '../../../shared/config/index.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { zauthKeys } from '../../auth/keys.js';
import type { Db } from '../../db/client.js';
import { type Change, commitChange } from '../../effects/commit-change.js';
import { publishEffect } from '../../events/publish.js';
import { clientsChangedEffect, teamMemberIds } from '../../galley/face.js';
import { legacyClientEffect } from '../../gundeck/face.js';
import { issueCookie, revokeLegalholdCookiesEffect } from '../auth/cookie-records.js';
import { clientEvents } from '../clients/client-events.js';
import { clientIdFromLastKey } from '../clients/client-id.js';
import { LEGALHOLD_CONSENT, legacyClientIds } from '../clients/client-json.js';
import { clientStore, type ClientRow } from '../clients/client-store.js';
import { accountObject } from '../clients/account-object.js';
import { clientsGoneEffects } from '../clients/clients-gone.js';
import { contactsOf } from '../users/contacts.js';
import { legalholdEvents } from './legalhold-events.js';

interface Prekey {
  id: number;
  key: string;
}

/** The most team members told of a member's legal hold (wire leaves the team out beyond it). */
const TEAM_AUDIENCE_LIMIT = 2000;

/** Who hears of a user's legal hold: the user, their accepted connections here, their team. */
async function audience(
  env: Env,
  db: Db,
  config: Config,
  user: string,
  team: string | null,
): Promise<{ user: string }[]> {
  const domain = localDomain(config);
  const contacts = (await contactsOf(env, { id: user, domain })).filter((u) => u.domain === domain).map((u) => u.id);
  const members = team === null ? [] : await teamMemberIds(db, team, TEAM_AUDIENCE_LIMIT + 1);
  const team_ = members.length > TEAM_AUDIENCE_LIMIT ? [] : members;
  return [...new Set([user, ...contacts, ...team_])].map((u) => ({ user: u }));
}

/** The client id a device with this last prekey will have (the request event names it in advance). */
export const legalholdClientId = (lastPrekey: Prekey): Promise<string> => clientIdFromLastKey(lastPrekey.key);

/**
 * The request of a device, announced with the change that records it; from now on nobody may
 * claim the user's key packages (legal hold records Proteus), which their Account object hears.
 */
export async function legalholdRequestAnnounced(
  env: Env,
  config: Config,
  db: Db,
  o: { user: string; team: string; lastPrekey: Prekey },
): Promise<Change> {
  const client = await legalholdClientId(o.lastPrekey);
  const event = legalholdEvents.request(o.user, o.lastPrekey, client);
  const effects = [
    claimStandingChangedEffect({ user: o.user }),
    publishEffect(await audience(env, db, config, o.user, o.team), event),
  ];
  return { statements: [], effects };
}

/** Adds the device (replacing an older one) and announces it, as one change; its id. */
export async function addLegalholdDevice(
  env: Env,
  config: Config,
  db: Db,
  o: { user: string; team: string; prekeys: readonly Prekey[]; lastPrekey: Prekey; origin?: AccessClaims },
): Promise<string> {
  const id = await legalholdClientId(o.lastPrekey);
  const all = await clientStore.list(db, o.user);
  const replaced = all.filter((c) => c.type === 'legalhold' && c.id !== id);
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
  const gone = replaced.map((old) => old.id);
  const own = [{ user: o.user }];
  // The prekeys first, as for any client (brig/clients/add-client.ts).
  await accountObject(env, o.user).putPrekeys(o.user, id, [...o.prekeys, o.lastPrekey]);
  await commitChange(env, config, {
    statements: [clientStore.upsert(db, row), ...gone.map((old) => clientStore.delete(db, o.user, old))],
    effects: [
      ...clientsGoneEffects(o.user, gone),
      legacyClientEffect({ user: o.user, client: id, legacy: legacyClientIds(all, [id, ...gone]) }),
      clientsChangedEffect({ id: o.user, domain: localDomain(config) }),
      ...gone.map((old) => publishEffect(own, clientEvents.remove(old), { origin: o.origin })),
      publishEffect(own, clientEvents.add(row), { origin: o.origin }),
      publishEffect(await audience(env, db, config, o.user, o.team), legalholdEvents.enable(o.user)),
    ],
  });
  return id;
}

/**
 * Removes the user's legal hold devices and their service's cookies; contacts hear it either way.
 * A change, for the caller to commit with the end of legal hold.
 */
export async function removingLegalholdDevices(
  env: Env,
  config: Config,
  db: Db,
  o: { user: string; team: string },
): Promise<Change> {
  const gone = (await clientStore.list(db, o.user)).filter((c) => c.type === 'legalhold').map((c) => c.id);
  const me = { id: o.user, domain: localDomain(config) };
  return {
    statements: gone.map((id) => clientStore.delete(db, o.user, id)),
    effects: [
      revokeLegalholdCookiesEffect({ user: o.user }),
      ...clientsGoneEffects(o.user, gone),
      clientsChangedEffect(me, gone),
      ...gone.map((id) => publishEffect([{ user: o.user }], clientEvents.remove(id))),
      publishEffect(await audience(env, db, config, o.user, o.team), legalholdEvents.disable(o.user)),
    ],
  };
}

/** A cookie for the user's legal hold service: its access tokens reach only what the device needs. */
export async function legalholdCookie(env: Env, config: Config, user: string): Promise<string> {
  const keys = await zauthKeys(env, config.brig.zauth.keyIndex);
  return (await issueCookie(env, keys, config, user, { kind: 'persistent', legalhold: true })).token;
}
