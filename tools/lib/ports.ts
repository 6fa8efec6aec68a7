import { createServer } from 'node:net';

const HOST = '127.0.0.1';

/** A TCP port on loopback that nobody holds right now. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? res(port) : rej(new Error('could not pick a free port'))));
    });
  });
}

/** Whether `port` on loopback can be bound now. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((res) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => res(false));
    srv.listen(port, HOST, () => srv.close(() => res(true)));
  });
}

/**
 * A free port below the kernel's ephemeral range (Linux: from 32768): a port to hand to a process
 * that binds it seconds later, which no `listen(0)` elsewhere can take in between.
 */
export async function freeFixedPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await portFree(port)) return port;
  }
}
