import WebSocket from 'ws';

/** A websocket that collects every message, with a way to await one that matches. */
export interface TestSocket {
  messages: unknown[];
  next(match?: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  send(data: string | Buffer): void;
  /** Resolves when the server closes the socket, with the close code. */
  closed: Promise<number>;
  /** The same, with the close reason. */
  closedWith: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

/** Opens a websocket on the public ingress (http(s) → ws(s)); JSON frames are parsed, others kept as text. */
export function openSocket(base: string, path: string): Promise<TestSocket> {
  const ws = new WebSocket(base.replace(/^http/, 'ws') + path);
  const messages: unknown[] = [];
  const waiters: Array<{ match: (m: any) => boolean; resolve: (m: unknown) => void }> = [];
  ws.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    let m: unknown = text;
    try {
      m = JSON.parse(text);
    } catch {
      // plain text ("pong")
    }
    messages.push(m);
    const i = waiters.findIndex((w) => w.match(m));
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(m);
  });
  const closedWith = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const closed = closedWith.then((c) => c.code);
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('open', () =>
      resolve({
        messages,
        next(match = () => true, timeoutMs = 10_000) {
          const seen = messages.find(match);
          if (seen !== undefined) {
            messages.splice(messages.indexOf(seen), 1);
            return Promise.resolve(seen);
          }
          return new Promise((res, rej) => {
            const waiter = {
              match,
              resolve: (m: unknown) => {
                clearTimeout(timer);
                messages.splice(messages.indexOf(m), 1);
                res(m);
              },
            };
            // A waiter that timed out must not take a later message.
            const timer = setTimeout(() => {
              waiters.splice(waiters.indexOf(waiter), 1);
              rej(new Error('no matching websocket message'));
            }, timeoutMs);
            waiters.push(waiter);
          });
        },
        send: (data) => ws.send(data),
        closed,
        closedWith,
        close: async () => {
          if (ws.readyState === WebSocket.CLOSED) return;
          ws.close();
          await closed;
        },
      }),
    );
  });
}
