// Scenarios of wire-server's Test/Conversation.hs, AccessUpdate.hs, MessageTimer.hs and Roles.hs
// whose users live on two backends (OwnDomain, OtherDomain): one federated pair for the file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient } from '../helpers/clients.js';
import { A, B, connectAcross, type FederatedPair, startFederatedPair } from '../helpers/federation.js';
import { api, connect, createUser, invitedMember, type TestUser, teamOwner } from '../helpers/users.js';
import { waitFor } from '../helpers/wait.js';
import { awaitEvent, socketOf } from './lib/env.js';
import { deleteTeamConversation, postConversation } from '../helpers/endpoints/galley.js';
import { getNotifications } from '../helpers/endpoints/gundeck.js';

let pair: FederatedPair;
beforeAll(async () => {
  pair = await startFederatedPair();
}, 180_000);
afterAll(async () => {
  await pair?.stop();
});

type Where = 'a' | 'b';
interface U extends TestUser {
  where: Where;
  domain: string;
}
const base = (u: { where: Where }) => pair[u.where].publicUrl;
const q = (u: U) => ({ id: u.id, domain: u.domain });
const on = (u: U) => api(base(u), u.token);

async function user(where: Where): Promise<U> {
  const b = pair[where];
  return { ...(await createUser(b.publicUrl, b.internalUrl)), where, domain: where === 'a' ? A : B };
}

async function connected(x: U, y: U) {
  if (x.where === y.where) return connect(base(x), x, y);
  await connectAcross(
    { user: x, backend: pair[x.where], domain: x.domain },
    { user: y, backend: pair[y.where], domain: y.domain },
  );
}

/** Users on these sides, the first connected to every other (createAndConnectUsers of two). */
async function users(...sides: Where[]): Promise<U[]> {
  const list = await Promise.all(sides.map(user));
  for (const other of list.slice(1)) await connected(list[0]!, other);
  return list;
}

async function newConv(creator: U, body: Record<string, unknown>) {
  const r = await postConversation(base(creator), creator.token, { qualified_users: [], ...body });
  expect(r.status, r.text).toBe(201);
  return r.body.qualified_id as { id: string; domain: string };
}

const convPath = (c: { id: string; domain: string }) => `/v8/conversations/${c.domain}/${c.id}`;
const sockets = (list: U[]) => Promise.all(list.map((u) => socketOf(u, undefined, base(u))));

describe('Conversation (two backends)', () => {
  it('Conversation.testFederatedConversation', async () => {
    const [alice, bob] = await users('a', 'b');
    const conv = await newConv(alice!, {});
    const [ws] = await sockets([bob!]);
    expect((await on(alice!).post(`${convPath(conv)}/members`, { qualified_users: [q(bob!)] })).status).toBe(200);
    await awaitEvent(ws!, 'conversation.member-join');
    await ws!.close();
    const mine = await on(alice!).get(convPath(conv));
    expect(mine.body.members.others.map((m: any) => m.qualified_id)).toEqual([q(bob!)]);
    const theirs = await on(bob!).get(convPath(conv));
    expect(theirs.status).toBe(200);
    expect(theirs.body.members.others.map((m: any) => m.qualified_id)).toEqual([q(alice!)]);
  });

  it('Conversation.testConvRenaming', async () => {
    const [alice, bob] = await users('a', 'b');
    const conv = await newConv(alice!, { qualified_users: [q(bob!)] });
    const wss = await sockets([alice!, bob!]);
    for (const ws of wss) {
      expect((await on(alice!).put(`${convPath(conv)}/name`, { name: 'The new conversation name' })).status).toBe(200);
      const e = await awaitEvent(ws, 'conversation.rename');
      expect(e.data.name).toBe('The new conversation name');
      expect(e.qualified_conversation).toEqual(conv);
    }
    await Promise.all(wss.map((w) => w.close()));
  });

  it('Conversation.testReceiptModeWithRemotesOk', async () => {
    const [alice, bob] = await users('a', 'b');
    const conv = await newConv(alice!, { qualified_users: [q(bob!)] });
    const wss = await sockets([alice!, bob!]);
    expect((await on(alice!).put(`${convPath(conv)}/receipt-mode`, { receipt_mode: 43 })).status).toBe(200);
    for (const ws of wss) {
      const e = await awaitEvent(ws, 'conversation.receipt-mode-update');
      expect(e.qualified_conversation).toEqual(conv);
      expect(e.qualified_from).toEqual(q(alice!));
      expect(e.data.receipt_mode).toBe(43);
    }
    await Promise.all(wss.map((w) => w.close()));
  });

  for (const which of ['Local', 'Remote'] as const) {
    it(`Conversation.testDelete${which}Member`, async () => {
      const [alice, alex, bob] = await users('a', 'a', 'b');
      const conv = await newConv(alice!, { qualified_users: [q(alex!), q(bob!)] });
      const gone = which === 'Local' ? alex! : bob!;
      const remove = () => on(alice!).del(`${convPath(conv)}/members/${gone.domain}/${gone.id}`);
      const r = await remove();
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({
        type: 'conversation.member-leave',
        qualified_conversation: conv,
        qualified_from: q(alice!),
      });
      expect(r.body.data.qualified_user_ids[0]).toEqual(q(gone));
      const again = await remove();
      expect(again.status).toBe(204);
      expect(again.text).toBe('');
    });
  }

  it('Conversation.testDeleteTeamConversationWithRemoteMembers', async () => {
    const owner = await teamOwner(pair.a.publicUrl, pair.a.internalUrl);
    const alice: U = { ...owner, where: 'a', domain: A };
    const conv = await newConv(alice, { team: { teamid: owner.team, managed: false } });
    const bob = await user('b');
    await connected(alice, bob);
    expect((await on(alice).post(`${convPath(conv)}/members`, { qualified_users: [q(bob)] })).status).toBe(200);
    const wss = await sockets([alice, bob]);
    expect((await deleteTeamConversation(base(alice), alice.token, owner.team, conv.id)).status).toBe(200);
    for (const ws of wss) {
      const e = await awaitEvent(ws, 'conversation.delete');
      expect(e.qualified_conversation).toEqual(conv);
      expect(e.qualified_from).toEqual(q(alice));
    }
    await Promise.all(wss.map((w) => w.close()));
  });

  it('Conversation.testUpdateConversationByRemoteAdmin', async () => {
    const [alice, bob, charlie] = await users('a', 'b', 'b');
    const conv = await newConv(alice!, { qualified_users: [q(bob!), q(charlie!)] });
    expect(
      (await on(alice!).put(`${convPath(conv)}/members/${B}/${bob!.id}`, { conversation_role: 'wire_admin' })).status,
    ).toBe(200);
    const wss = await sockets([alice!, bob!, charlie!]);
    const r = await on(bob!).put(`${convPath(conv)}/receipt-mode`, { receipt_mode: 41 });
    expect(r.status, r.text).toBe(200);
    for (const ws of wss) await awaitEvent(ws, 'conversation.receipt-mode-update');
    await Promise.all(wss.map((w) => w.close()));
  });

  it('AccessUpdate.testAccessUpdateWithRemotes', async () => {
    const [alice, bob, charlie] = await users('a', 'b', 'a');
    const conv = await newConv(alice!, { qualified_users: [q(bob!), q(charlie!)] });
    const wss = await sockets([alice!, bob!, charlie!]);
    const access = ['code'];
    const roles = ['team_member', 'non_team_member', 'guest', 'service'];
    const r = await on(alice!).put(`${convPath(conv)}/access`, { access, access_role: roles });
    expect(r.status, r.text).toBe(200);
    for (const ws of wss) {
      const e = await awaitEvent(ws, 'conversation.access-update');
      expect(e.qualified_conversation).toEqual(conv);
      expect(e.qualified_from).toEqual(q(alice!));
      expect(e.data.access).toEqual(access);
      expect([...e.data.access_role_v2].sort()).toEqual([...roles].sort());
    }
    await Promise.all(wss.map((w) => w.close()));
  });

  it('AccessUpdate.testAccessUpdateGuestRemoved[Proteus]', async () => {
    const owner = await teamOwner(pair.a.publicUrl, pair.a.internalUrl);
    const alice: U = { ...owner, where: 'a', domain: A };
    const bob: U = { ...(await invitedMember(pair.a.publicUrl, owner)), where: 'a', domain: A };
    const [charlie, dee] = [await user('a'), await user('b')];
    for (const u of [charlie, dee]) await connected(alice, u);
    const clients = new Map<string, string>();
    for (const u of [alice, bob, charlie, dee]) clients.set(u.id, await addClient(base(u), u));
    const conv = await newConv(alice, {
      qualified_users: [q(bob), q(charlie), q(dee)],
      team: { teamid: owner.team, managed: false },
    });
    const r = await on(alice).put(`${convPath(conv)}/access`, { access: [], access_role: ['team_member'] });
    expect(r.status, r.text).toBe(200);
    // Every member, the removed ones too, is told that charlie and dee left (assertLeaveNotification).
    const leftFor = async (u: U) => {
      const n = await getNotifications(base(u), u.token, { client: clients.get(u.id), size: 1000 });
      return n.body.notifications
        .flatMap((x: any) => x.payload)
        .filter((e: any) => e.type === 'conversation.member-leave' && e.qualified_conversation.id === conv.id)
        .flatMap((e: any) => e.data.qualified_user_ids.map((x: any) => x.id));
    };
    for (const u of [alice, bob, charlie, dee]) {
      // A remote member hears it through federation, a moment later (awaitNotification).
      await waitFor(
        async () => {
          const left = await leftFor(u);
          return left.includes(charlie.id) && left.includes(dee.id) ? true : undefined;
        },
        `the member-leave of charlie and dee for ${u.where}:${u.id}`,
        10_000,
      );
    }
    const after = await on(alice).get(convPath(conv));
    expect(after.body.members.others.map((m: any) => m.qualified_id)).toEqual([q(bob)]);
  });

  it('MessageTimer.testMessageTimerChangeWithRemotes', async () => {
    const [alice, bob] = await users('a', 'b');
    const conv = await newConv(alice!, { qualified_users: [q(bob!)] });
    const wss = await sockets([alice!, bob!]);
    expect((await on(alice!).put(`${convPath(conv)}/message-timer`, { message_timer: 1000 })).status).toBe(200);
    for (const ws of wss) {
      const e = await awaitEvent(ws, 'conversation.message-timer-update');
      expect(e.qualified_conversation).toEqual(conv);
      expect(e.qualified_from).toEqual(q(alice!));
    }
    await Promise.all(wss.map((w) => w.close()));
  });

  it('Roles.testRoleUpdateWithRemotesOk', async () => {
    const [bob, charlie, alice] = await users('a', 'a', 'b');
    const conv = await newConv(bob!, { qualified_users: [q(charlie!), q(alice!)] });
    const wss = await sockets([bob!, charlie!, alice!]);
    const r = await on(bob!).put(`${convPath(conv)}/members/${A}/${charlie!.id}`, { conversation_role: 'wire_admin' });
    expect(r.status, r.text).toBe(200);
    const seen = await on(bob!).get(convPath(conv));
    const c = seen.body.members.others.find((m: any) => m.qualified_id.id === charlie!.id);
    expect(c.conversation_role).toBe('wire_admin');
    for (const ws of wss) {
      const e = await awaitEvent(ws, 'conversation.member-update');
      expect(e.qualified_conversation).toEqual(conv);
      expect(e.qualified_from).toEqual(q(bob!));
    }
    await Promise.all(wss.map((w) => w.close()));
  });
});
