import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { addClient } from '../../helpers/clients.js';
import { api, createUser, login } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';

const isUserUpdate = (m: any) => m?.type === 'event' && m.data.event.payload[0].type === 'user.update';
const stillOpen = async (s: TestSocket) => (await Promise.race([s.closed, Promise.resolve('open')])) === 'open';

// cannon's wsOpts in microseconds: a client silent for 300 ms + 300 ms is closed.
describe('GET /events inactivity close (wsOpts 0.3 s + 0.3 s)', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([['cannon.yaml', ['wsOpts'], { activityTimeout: 300_000, pongTimeout: 300_000 }]]);
  });
  afterAll(() => b?.stop());

  it('closes a silent /events socket with 1002 inactivity; clients that send frames stay, and /await is never closed', async () => {
    const u = await createUser(b.publicUrl, b.internalUrl);
    const other = await login(b.publicUrl, u.email, u.password);
    const legacy = await openSocket(b.publicUrl, `/v8/await?access_token=${u.token}`);
    // What a client sends on /events is JSON (a "ping" would close it, as in cannon): acks, as text
    // or binary frames, are its activity.
    const ack = JSON.stringify({ type: 'ack', data: { delivery_tag: 1, multiple: false } });
    const textAcker = await openSocket(b.publicUrl, `/v8/events?access_token=${u.token}`);
    const binaryAcker = await openSocket(b.publicUrl, `/v8/events?access_token=${u.token}`);
    const keepAlive = setInterval(() => {
      textAcker.send(ack);
      binaryAcker.send(Buffer.from(ack));
    }, 100);
    const silent = await openSocket(b.publicUrl, `/v8/events?access_token=${u.token}`);
    // One frame, then nothing: a client that went away without closing. (A socket that never
    // sent a single frame gets the close frame as promptly, but local workerd ends its TCP
    // connection only when the object hibernates, so its close event comes ~10 s later.)
    const lastFrame = Date.now();
    silent.send(ack);
    try {
      expect(await silent.closedWith).toEqual({ code: 1002, reason: 'inactivity' });
      expect(Date.now() - lastFrame).toBeGreaterThanOrEqual(590);
      // The sweep that closed it judged the sockets opened earlier too; an event appended after it
      // still reaches them, so they were kept.
      expect((await api(b.publicUrl, other.token).put('/v8/self/locale', { locale: 'de' })).status).toBe(200);
      for (const s of [textAcker, binaryAcker])
        expect((await s.next(isUserUpdate)).data.event.payload[0].user.locale).toBe('de');
      expect((await legacy.next((m) => m?.payload?.[0]?.type === 'user.update')).payload[0].user.locale).toBe('de');
      for (const s of [textAcker, binaryAcker, legacy]) expect(await stillOpen(s)).toBe(true);
    } finally {
      clearInterval(keepAlive);
      await Promise.all([legacy.close(), textAcker.close(), binaryAcker.close()]);
    }
  });

  it('closes a queue-consuming client that only stops sending, once silent for the limit', async () => {
    const u = await createUser(b.publicUrl, b.internalUrl);
    const cid = await addClient(b.publicUrl, u, { capabilities: ['consumable-notifications'] });
    const socket = await openSocket(b.publicUrl, `/v8/events?client=${cid}&access_token=${u.token}`);
    const sync = await socket.next((m) => m.type === 'synchronization');
    // Acknowledging is activity too; then the client falls silent.
    socket.send(JSON.stringify({ type: 'ack', data: { delivery_tag: sync.data.delivery_tag, multiple: false } }));
    expect(await socket.closedWith).toEqual({ code: 1002, reason: 'inactivity' });
  });
});
