// A bot's account: a user of type `bot` naming its service, active from the start, with one
// permanent client holding the prekeys its service handed over. Removing the bot marks the user
// deleted and drops the client, which ends what its token reaches.
import type { Db } from '../../db/client.js';
import { runBatch } from '../../db/client.js';
import type { NewBot } from '../../api/access/user-access.js';
import { clientStore, type ClientRow } from '../clients/client-store.js';
import { accountObject } from '../clients/account-object.js';
import type { UserRow } from '../users/user-json.js';
import { userStore } from '../users/user-store.js';

/** Stores the bot's prekeys, then writes its user and client in one batch. */
export async function createBotAccount(env: Env, db: Db, bot: NewBot): Promise<void> {
  const now = Date.now();
  const user: UserRow = {
    id: bot.id,
    name: bot.name,
    textStatus: null,
    accentId: bot.accentId,
    assets: bot.assets,
    locale: bot.locale,
    status: 'active',
    activated: false,
    email: null,
    emailKey: null,
    emailUnvalidated: null,
    handle: null,
    password: null,
    team: null,
    managedBy: 'wire',
    supportedProtocols: ['proteus'],
    userType: 'bot',
    ssoId: null,
    expiresAt: null,
    searchable: false,
    conferenceCalling: null,
    serviceProvider: bot.service.provider,
    serviceId: bot.service.id,
    createdAt: now,
  };
  const client: ClientRow = {
    user: bot.id,
    id: bot.client,
    type: 'permanent',
    class: null,
    label: null,
    model: null,
    cookie: null,
    capabilities: [],
    mlsPublicKeys: {},
    createdAt: now,
    lastActive: null,
  };
  await accountObject(env, bot.id).putPrekeys(bot.id, bot.client, bot.prekeys);
  await runBatch(db, [userStore.insert(db, user), clientStore.upsert(db, client)]);
}

/** The bot's account ends: marked deleted, its client and prekeys gone. */
export async function deleteBotAccount(env: Env, db: Db, bot: string): Promise<void> {
  const user = await userStore.byId(db, bot);
  if (user?.userType !== 'bot') return;
  await runBatch(db, [
    userStore.update(db, bot, { status: 'deleted' }),
    ...(await clientStore.list(db, bot)).map((c) => clientStore.delete(db, bot, c.id)),
  ]);
  await accountObject(env, bot).forgetAll(bot);
}
