import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { cellsSink, type CellsSink } from '../../helpers/cells-sink.js';
import { api, connect, createUser, type TestUser } from '../../helpers/users.js';
import { postConversation, putConversationName } from '../../helpers/endpoints/galley.js';

const q = (id: string) => ({ id, domain: 'example.com' });

describe('cells: events of conversations with cells go to the cells queue', () => {
  let b: TestBackend;
  let sink: CellsSink;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    sink = await cellsSink();
    b = await startEditedBackend([['gundeck.yaml', ['settings', 'cellsEventQueue'], 'cells_events']], {
      extraWorkers: [sink.worker],
    });
    owner = await createUser(b.publicUrl, b.internalUrl);
    other = await createUser(b.publicUrl, b.internalUrl);
    await connect(b.publicUrl, owner, other);
  });
  afterAll(async () => {
    await b?.stop();
    await sink?.close();
  });

  const ofConv = (conv: string, type: string) => (m: any) =>
    m.payload?.[0]?.type === type && m.payload[0].qualified_conversation?.id === conv;

  it('forwards create (once, without data), member and name events, not others, while cells is pending', async () => {
    const me = api(b.publicUrl, owner.token);
    const created = await postConversation(b.publicUrl, owner.token, {
      name: 'Shared files',
      qualified_users: [q(other.id)],
      cells: true,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.cells_state).toBe('pending');
    const conv = created.body.qualified_id.id as string;
    const path = `/v8/conversations/example.com/${conv}`;

    const create = await sink.next(ofConv(conv, 'conversation.create'));
    expect(create.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-/);
    expect(create.payload).toEqual([
      {
        type: 'conversation.create',
        qualified_conversation: q(conv),
        qualified_from: q(owner.id),
        time: expect.any(String),
      },
    ]);

    expect((await me.put(`${path}/name`, { name: 'Renamed' })).status).toBe(200);
    expect((await me.put(`${path}/message-timer`, { message_timer: 1000 })).status).toBe(200);
    expect((await me.del(`${path}/members/example.com/${other.id}`)).status).toBe(200);
    const rename = await sink.next(ofConv(conv, 'conversation.rename'));
    expect(rename.payload[0]).toMatchObject({ data: { name: 'Renamed' }, qualified_from: q(owner.id) });
    const leave = await sink.next(ofConv(conv, 'conversation.member-leave'));
    expect(leave.payload[0].data.qualified_user_ids).toEqual([q(other.id)]);

    const forConv = sink.received
      .filter((m: any) => m.payload[0].qualified_conversation.id === conv)
      .map((m: any) => m.payload[0].type);
    expect(forConv.filter((t) => t === 'conversation.create')).toHaveLength(1);
    expect(forConv).not.toContain('conversation.message-timer-update');
  });

  it('forwards nothing for conversations without cells', async () => {
    const plain = await postConversation(b.publicUrl, owner.token, { name: 'Plain', qualified_users: [q(other.id)] });
    const conv = plain.body.qualified_id.id as string;
    expect(
      (
        await putConversationName(
          b.publicUrl,
          owner.token,
          { domain: 'example.com', id: conv },
          { name: 'Still plain' },
        )
      ).status,
    ).toBe(200);
    // A cells conversation renamed afterwards: its event arriving means the plain one's would have too.
    const marker = await postConversation(b.publicUrl, owner.token, {
      name: 'Marker',
      qualified_users: [q(other.id)],
      cells: true,
    });
    const markerId = marker.body.qualified_id.id as string;
    expect(
      (
        await putConversationName(
          b.publicUrl,
          owner.token,
          { domain: 'example.com', id: markerId },
          { name: 'Marker 2' },
        )
      ).status,
    ).toBe(200);
    await sink.next(ofConv(markerId, 'conversation.rename'));
    expect(sink.received.filter((m: any) => m.payload[0].qualified_conversation.id === conv)).toEqual([]);
  });
});
