import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetBody, fetchRedirect } from '../../helpers/assets.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { startBotService, type BotService } from '../../helpers/bot-service.js';
import { addClient, otrEventsOf } from '../../helpers/clients.js';
import { call, wireError } from '../../helpers/http.js';
import { proteusKeys } from '../../helpers/prekeys.js';
import { type ActiveProvider, activeProvider, asProvider } from '../../helpers/providers.js';
import { api, invitedMember, teamOwner, type TeamOwner, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import {
  deleteBotSelf,
  deleteProviderService,
  getBotClient,
  getBotConversation,
  getBotPrekeyIds,
  getBotSelf,
  getSelf,
  postBotMessage,
  postBotPrekeys,
  postBotUsersPrekeys,
  postConversationBot,
  postProviderService,
  removeBot,
} from '../../helpers/endpoints/brig.js';
import {
  getConversation,
  postConversation,
  postOtrMessage,
  putConversationAccess,
  putConversationName,
  updateConversationMember,
} from '../../helpers/endpoints/galley.js';

// Bots (wire's services): a team admin adds an instance of a provider's service to a conversation;
// the service, a TLS server the test runs with its key pinned, creates it and then receives the
// conversation's events and the messages addressed to the bot, and the bot speaks through the bot
// API with the token it was given.

const DOMAIN = 'example.com';

describe('bots', () => {
  let b: TestBackend;
  let pub: string;
  let service: BotService;
  let provider: ActiveProvider;
  let sid: string;
  let owner: TeamOwner;
  let member: TestUser & { team: string };
  let ownerClient: string;
  let memberClient: string;

  /** A team conversation of owner and member, open to services. */
  async function conversation(accessRole = ['team_member', 'non_team_member', 'guest', 'service']) {
    const r = await postConversation(pub, owner.token, {
      qualified_users: [{ id: member.id, domain: DOMAIN }],
      team: { teamid: owner.team, managed: false },
      access: ['invite', 'code'],
      access_role: accessRole,
    });
    expect(r.status, r.text).toBe(201);
    return r.body.qualified_id.id as string;
  }

  const addBot = (conv: string, token = owner.token) =>
    postConversationBot(pub, token, conv, { provider: provider.id, service: sid });

  /** Adds a bot; its id, client and token (from the service's creation request). */
  async function botIn(conv: string) {
    const r = await addBot(conv);
    expect(r.status, r.text).toBe(201);
    const token = service.newBots.find((n) => n.body.id === r.body.id)!.body.token as string;
    return { id: r.body.id as string, client: r.body.client as string, token, added: r.body };
  }

  beforeAll(async () => {
    [b, service] = await Promise.all([startEditedBackend([], { sidecar: true }), startBotService()]);
    pub = b.publicUrl;
    provider = await activeProvider(pub, b.internalUrl);
    const created = await postProviderService(pub, provider.cookie, {
      name: 'Weather',
      summary: 'Tells the weather',
      description: 'A bot that tells the weather',
      base_url: service.baseUrl,
      public_key: service.publicKeyPem,
      auth_token: service.authToken,
      assets: [],
      tags: ['weather'],
    });
    expect(created.status, created.text).toBe(201);
    sid = created.body.id;
    owner = await teamOwner(pub, b.internalUrl);
    member = await invitedMember(pub, owner);
    [ownerClient, memberClient] = await Promise.all([addClient(pub, owner), addClient(pub, member)]);
  });
  afterAll(async () => {
    await b?.stop();
    await service?.stop();
  });

  const connection = `/v8/provider/services/`;
  const enable = (enabled: boolean) =>
    asProvider(pub, provider.cookie, 'PUT', `${connection}${sid}/connection`, { password: provider.password, enabled });
  const whitelist = (whitelisted: boolean) =>
    api(pub, owner.token).post(`/v8/teams/${owner.team}/services/whitelist`, {
      provider: provider.id,
      id: sid,
      whitelisted,
    });

  it('joins only where allowed: an enabled service the team whitelisted, by an admin, where services may be', async () => {
    const conv = await conversation();
    expect((await addBot(conv)).body).toMatchObject(wireError(403, 'service-disabled'));
    expect((await enable(true)).status).toBe(200);
    expect((await addBot(conv)).body).toMatchObject(wireError(403, 'service-not-whitelisted'));
    expect((await whitelist(true)).status).toBe(200);
    const byMember = await updateConversationMember(
      pub,
      owner.token,
      { domain: DOMAIN, id: conv },
      { domain: DOMAIN, id: member.id },
      { conversation_role: 'wire_member' },
    );
    expect(byMember.status, byMember.text).toBe(200);
    expect((await addBot(conv, member.token)).body).toMatchObject(wireError(403, 'access-denied'));
    const closed = await conversation(['team_member']);
    expect((await addBot(closed)).body).toMatchObject(wireError(403, 'invalid-conversation'));
    expect((await addBot(crypto.randomUUID())).body).toMatchObject(wireError(404, 'not-found'));
    expect(service.newBots).toHaveLength(0); // the service was never asked

    service.creation = 'full';
    expect((await addBot(conv)).body).toMatchObject(wireError(409, 'too-many-bots'));
    service.creation = 'garbage';
    expect((await addBot(conv)).body).toMatchObject(wireError(502, 'bad-gateway'));
    service.creation = 'ok';
    // A team whose logins need a second factor takes no bots.
    const snd = `/i/teams/${owner.team}/features/sndFactorPasswordChallenge`;
    expect((await api(b.internalUrl).patch(snd, { status: 'enabled', lockStatus: 'unlocked' })).status).toBe(200);
    expect((await addBot(conv)).body).toMatchObject(wireError(403, 'access-denied'));
    expect((await api(b.internalUrl).patch(snd, { status: 'disabled' })).status).toBe(200);
    const members = await getConversation(pub, owner.token, { domain: DOMAIN, id: conv });
    expect(members.body.members.others.map((m: any) => m.id)).toEqual([member.id]); // nothing half-added
  });

  it('is created by its service, joins with member-join, and gets the conversation’s events', async () => {
    const conv = await conversation();
    const bot = await botIn(conv);
    expect(bot.added).toMatchObject({ name: 'Weather Bot', accent_id: 3, assets: [] });
    expect(bot.added.event).toMatchObject({
      type: 'conversation.member-join',
      from: owner.id,
      data: { user_ids: [bot.id], users: [{ id: bot.id, conversation_role: 'wire_admin' }] },
    });
    const asked = service.newBots.find((n) => n.body.id === bot.id)!;
    expect(asked.authorization).toBe(`Bearer ${service.authToken}`);
    expect(asked.body).toMatchObject({
      client: bot.client,
      origin: { id: owner.id, team: owner.team },
      conversation: { id: conv, members: [{ id: owner.id }, { id: member.id }] },
      locale: 'en',
    });

    const seen = await getConversation(pub, member.token, { domain: DOMAIN, id: conv });
    const botMember = seen.body.members.others.find((m: any) => m.id === bot.id);
    expect(botMember).toMatchObject({ conversation_role: 'wire_admin', service: { id: sid, provider: provider.id } });
    const joined = await service.nextEvent(bot.id, (e) => e.type === 'conversation.member-join', 'member-join');
    expect(joined).toMatchObject({ conversation: conv, data: { user_ids: [bot.id] } });

    const renamed = await putConversationName(pub, owner.token, { domain: DOMAIN, id: conv }, { name: 'Forecast' });
    expect(renamed.status, renamed.text).toBe(200);
    const rename = await service.nextEvent(bot.id, (e) => e.type === 'conversation.rename', 'rename');
    expect(rename).toMatchObject({ from: owner.id, data: { name: 'Forecast' } });
  });

  it('speaks through the bot API with its token, which reaches nothing else', async () => {
    const conv = await conversation();
    const bot = await botIn(conv);
    const asBot = api(pub, bot.token);
    const me = await getBotSelf(pub, bot.token);
    expect(me.body).toMatchObject({ id: bot.id, name: 'Weather Bot', service: { id: sid, provider: provider.id } });
    expect((await getBotClient(pub, bot.token)).body).toMatchObject({ id: bot.client, type: 'permanent' });
    expect((await getBotPrekeyIds(pub, bot.token)).body).toEqual([0, 1, 2, 65535]);
    const more = (await proteusKeys(2, 10)).prekeys;
    expect((await postBotPrekeys(pub, bot.token, { prekeys: more })).status).toBe(200);
    expect((await getBotPrekeyIds(pub, bot.token)).body).toEqual([0, 1, 2, 10, 11, 65535]);
    const bad = await postBotPrekeys(pub, bot.token, { prekeys: [{ id: 12, key: 'bm90IGEga2V5' }] });
    expect(bad.body).toMatchObject(wireError(400, 'bad-request'));
    const view = await getBotConversation(pub, bot.token);
    expect(view.body).toMatchObject({ id: conv });
    expect(view.body.members.map((m: any) => m.id).sort()).toEqual([owner.id, member.id].sort());
    const users = await asBot.get(`/v8/bot/users?ids=${owner.id},${member.id}`);
    expect(users.body).toContainEqual({
      id: owner.id,
      name: expect.any(String),
      accent_id: 0,
      handle: null,
      team: owner.team,
    });
    const clients = await asBot.get(`/v8/bot/users/${member.id}/clients`);
    expect(clients.body.map((c: any) => c.id)).toEqual([memberClient]);
    const claimed = await postBotUsersPrekeys(pub, bot.token, { [member.id]: [memberClient] });
    expect(claimed.body[member.id][memberClient]).toMatchObject({ id: expect.any(Number), key: expect.any(String) });
    const crowd = Object.fromEntries(Array.from({ length: 501 }, () => [crypto.randomUUID(), []]));
    expect((await postBotUsersPrekeys(pub, bot.token, crowd)).body).toMatchObject(wireError(403, 'too-many-clients'));

    // A bot's token reaches only the bot API; a user's access token does not reach it.
    expect((await getSelf(pub, bot.token)).body).toMatchObject(wireError(403, 'access-denied'));
    expect((await getBotSelf(pub, owner.token)).body).toMatchObject(wireError(403, 'access-denied'));

    // The bot writes to the conversation: every member's client must be among the recipients.
    const text = (s: string) => Buffer.from(s).toString('base64');
    const missing = await postBotMessage(pub, bot.token, {
      sender: bot.client,
      recipients: { [owner.id]: { [ownerClient]: text('hi') } },
    });
    expect(missing.status).toBe(412);
    expect(missing.body.missing).toEqual({ [member.id]: [memberClient] });
    const sent = await postBotMessage(pub, bot.token, {
      sender: bot.client,
      recipients: {
        [owner.id]: { [ownerClient]: text('hi owner') },
        [member.id]: { [memberClient]: text('hi member') },
      },
    });
    expect(sent.status, sent.text).toBe(201);
    const got = (await otrEventsOf(pub, member, memberClient)).find((e: any) => e.from === bot.id);
    expect(got).toMatchObject({ conversation: conv, data: { sender: bot.client, text: text('hi member') } });

    // Members write to it: the bot's ciphertext goes to its service, not to a notification stream.
    const toBot = await postOtrMessage(pub, owner.token, conv, {
      sender: ownerClient,
      recipients: { [member.id]: { [memberClient]: text('m') }, [bot.id]: { [bot.client]: text('for the bot') } },
    });
    expect(toBot.status, toBot.text).toBe(201);
    const message = await service.nextEvent(bot.id, (e) => e.type === 'conversation.otr-message-add', 'message');
    expect(message).toMatchObject({
      from: owner.id,
      conversation: conv,
      data: { sender: ownerClient, recipient: bot.client, text: text('for the bot') },
    });
    const forgot = await postOtrMessage(pub, owner.token, conv, {
      sender: ownerClient,
      recipients: { [member.id]: { [memberClient]: text('m') } },
    });
    expect(forgot.body.missing).toEqual({ [bot.id]: [bot.client] });
  });

  it('leaves when an admin removes it, when it leaves, or when its service disowns it', async () => {
    const conv = await conversation();
    const bot = await botIn(conv);
    const removed = await removeBot(pub, owner.token, conv, bot.id);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.event).toMatchObject({ type: 'conversation.member-leave', data: { user_ids: [bot.id] } });
    // The removed bot hears of it too.
    await service.nextEvent(bot.id, (e) => e.type === 'conversation.member-leave', 'its own member-leave');
    expect((await removeBot(pub, owner.token, conv, bot.id)).status).toBe(204);
    expect((await getBotConversation(pub, bot.token)).body).toMatchObject(wireError(404, 'no-conversation'));
    expect((await getBotSelf(pub, bot.token)).body).toMatchObject(wireError(404, 'not-found'));

    const leaving = await botIn(conv);
    expect((await deleteBotSelf(pub, leaving.token)).status).toBe(200);
    const left = await getConversation(pub, owner.token, { domain: DOMAIN, id: conv });
    expect(left.body.members.others.map((m: any) => m.id)).toEqual([member.id]);

    // Before v7 the routes were under the conversation.
    const old = await api(pub, owner.token).post(`/v6/conversations/${conv}/bots`, {
      provider: provider.id,
      service: sid,
    });
    expect(old.status, old.text).toBe(201);
    const gone = service.newBots.find((n) => n.body.id === old.body.id)!.body;
    const socket = await openSocket(pub, `/v8/await?access_token=${member.token}`);
    service.eventStatus = 410;
    try {
      const text = Buffer.from('x').toString('base64');
      const sent = await postOtrMessage(pub, owner.token, conv, {
        sender: ownerClient,
        recipients: { [member.id]: { [memberClient]: text }, [gone.id]: { [gone.client]: text } },
      });
      expect(sent.status, sent.text).toBe(201);
      const frame = await socket.next(
        (m) => m.payload?.[0]?.type === 'conversation.member-leave' && m.payload[0].data.user_ids.includes(gone.id),
      );
      expect(frame.payload[0]).toMatchObject({ conversation: conv, from: gone.id, data: { reason: 'removed' } });
    } finally {
      service.eventStatus = 200;
      await socket.close();
    }
  });

  it('stores assets of bots and providers, each owner’s own', async () => {
    const conv = await conversation();
    const bot = await botIn(conv);
    const upload = (path: string, headers: Record<string, string>) => {
      const { body, contentType } = assetBody(Buffer.from('an avatar'), { public: false, retention: 'eternal' });
      return call(pub, path, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body });
    };
    const byBot = await upload('/v8/bot/assets', { authorization: `Bearer ${bot.token}` });
    expect(byBot.status, byBot.text).toBe(201);
    expect(byBot.headers.get('location')).toBe(`/bot/assets/${byBot.body.key}`);
    const fetched = await call(pub, `/v8/bot/assets/${byBot.body.key}`, {
      headers: { authorization: `Bearer ${bot.token}` },
      redirect: 'manual',
    });
    expect(fetched.status).toBe(302);
    expect((await fetchRedirect(fetched)).bytes.toString()).toBe('an avatar');

    const byProvider = await upload('/v8/provider/assets', { cookie: provider.cookie });
    expect(byProvider.status, byProvider.text).toBe(201);
    expect(byProvider.headers.get('location')).toBe(`/provider/assets/${byProvider.body.key}`);
    // Someone else's asset: not theirs to delete, and without its token not theirs to see.
    const foreign = await call(pub, `/v8/bot/assets/${byProvider.body.key}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bot.token}` },
    });
    expect(foreign.body).toMatchObject(wireError(403, 'unauthorised'));
    const unseen = await call(pub, `/v8/bot/assets/${byProvider.body.key}`, {
      headers: { authorization: `Bearer ${bot.token}` },
      redirect: 'manual',
    });
    expect(unseen.body).toMatchObject(wireError(404, 'not-found'));
    const withToken = await call(pub, `/v8/bot/assets/${byProvider.body.key}`, {
      headers: { authorization: `Bearer ${bot.token}`, 'asset-token': byProvider.body.token },
      redirect: 'manual',
    });
    expect(withToken.status).toBe(302);
    const own = await asProvider(pub, provider.cookie, 'DELETE', `/v8/provider/assets/${byProvider.body.key}`);
    expect(own.status).toBe(200);
    const userToBot = await call(pub, `/v8/bot/assets/${byBot.body.key}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(userToBot.body).toMatchObject(wireError(403, 'access-denied'));
  });

  it('leaves when the conversation closes to services, the team de-whitelists it, or it is deleted', async () => {
    const conv = await conversation();
    const first = await botIn(conv);
    const closed = await putConversationAccess(
      pub,
      owner.token,
      { domain: DOMAIN, id: conv },
      {
        access: ['invite', 'code'],
        access_role: ['team_member', 'non_team_member', 'guest'],
      },
    );
    expect(closed.status, closed.text).toBe(200);
    expect((await getBotConversation(pub, first.token)).body).toMatchObject(wireError(404, 'no-conversation'));

    const other = await conversation();
    const second = await botIn(other);
    expect((await whitelist(false)).status).toBe(200);
    await service.nextEvent(second.id, (e) => e.type === 'conversation.member-leave', 'member-leave');
    expect((await getBotConversation(pub, second.token)).body).toMatchObject(wireError(404, 'no-conversation'));
    expect((await whitelist(true)).status).toBe(200);

    const third = await botIn(other);
    const deleted = await deleteProviderService(pub, provider.cookie, sid, {
      password: provider.password,
    });
    expect(deleted.status).toBe(202);
    const seen = await getConversation(pub, owner.token, { domain: DOMAIN, id: other });
    expect(seen.body.members.others.map((m: any) => m.id)).toEqual([member.id]);
    expect((await getBotSelf(pub, third.token)).body).toMatchObject(wireError(404, 'not-found'));
  });
});
