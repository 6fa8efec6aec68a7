import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sharedBackend } from '../../helpers/backend.js';
import { createUser } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();

interface Frame {
  text: string;
  isBinary: boolean;
}

/** A raw socket, to see whether a frame came as text or binary (the web client reads both as bytes). */
async function rawSocket(path: string) {
  const ws = new WebSocket(publicUrl.replace(/^http/, 'ws') + path);
  const frames: Frame[] = [];
  const waiting: Array<(f: Frame) => void> = [];
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    const frame = { text: data.toString('utf8'), isBinary };
    const next = waiting.shift();
    if (next === undefined) frames.push(frame);
    else next(frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const next = (timeoutMs = 5000) =>
    frames.length > 0
      ? Promise.resolve(frames.shift()!)
      : new Promise<Frame>((resolve, reject) => {
          setTimeout(() => reject(new Error('no frame')), timeoutMs);
          waiting.push(resolve);
        });
  return { ws, next, closed };
}

// Issue 40, point 4: cannon's answer to the clients' application-level ping.
describe('application-level ping', () => {
  it('/await answers a text or binary "ping" with a binary "pong" and ignores other frames', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const socket = await rawSocket(`/v8/await?access_token=${u.token}`);
    try {
      socket.ws.send('ping');
      expect(await socket.next()).toEqual({ text: 'pong', isBinary: true });
      socket.ws.send(Buffer.from('ping'));
      expect(await socket.next()).toEqual({ text: 'pong', isBinary: true });
      socket.ws.send('hello');
      socket.ws.send('ping');
      expect(await socket.next()).toEqual({ text: 'pong', isBinary: true });
      expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    } finally {
      socket.ws.close();
      await socket.closed;
    }
  });

  it('/events takes JSON only: a "ping" closes it with 1003 failed-to-parse', async () => {
    const u = await createUser(publicUrl, internalUrl);
    for (const ping of ['ping', Buffer.from('ping')]) {
      const socket = await rawSocket(`/v8/events?access_token=${u.token}`);
      socket.ws.send(ping);
      expect(await socket.closed).toEqual({ code: 1003, reason: 'failed-to-parse' });
    }
  });
});
