import { describe, expect, it } from 'vitest';
import { GONE_AFTER_MS, QueueConsumers } from '../../../src/objects/notifications/queue-consumers.js';
import type { Attachment } from '../../../src/objects/notifications/socket-attachment.js';

/** A hibernatable socket as QueueConsumers sees it: its attachment, and how it was closed. */
interface FakeSocket {
  a: Attachment;
  closedWith?: [number, string];
  close(code: number, reason: string): void;
}

/** The open `/events` sockets of one client of one user, a clock, and the sockets that started consuming. */
function setup() {
  const open: FakeSocket[] = [];
  const started: FakeSocket[] = [];
  let now = 1_000_000;
  const sockets = {
    of: (kind: string, user: string) => open.filter((s) => s.a.kind === kind && s.a.user === user),
    attachment: (s: FakeSocket) => s.a,
    update: (s: FakeSocket, a: Attachment) => {
      s.a = a;
    },
    forget: (s: FakeSocket) => {
      if (open.includes(s)) open.splice(open.indexOf(s), 1);
    },
  };
  const consumers = new QueueConsumers(
    sockets as any,
    (ws) => started.push(ws as unknown as FakeSocket),
    () => now,
  );
  const connect = (): any => {
    const s: FakeSocket = {
      a: { kind: 'events', user: 'u', client: 'c1', opened: now },
      close(code, reason) {
        this.closedWith = [code, reason];
      },
    };
    open.push(s);
    consumers.connected(s as any, s.a);
    now += 1;
    return s;
  };
  const close = (s: any) => {
    sockets.forget(s);
    consumers.closed(s);
  };
  const handed = (s: any) => consumers.handed(s, s.a);
  return { consumers, connect, close, handed, started, tick: (ms: number) => (now += ms) };
}

describe('QueueConsumers', () => {
  it("lets a client's first socket consume; the others wait and take over in the order they connected", () => {
    const { connect, close, started } = setup();
    const [first, second, third] = [connect(), connect(), connect()];
    expect(started).toEqual([first]);
    expect([second.a.waiting, third.a.waiting]).toEqual([true, true]);
    close(third); // a waiting socket going changes nothing
    expect(started).toEqual([first]);
    close(first);
    expect(started).toEqual([first, second]);
    expect(second.a.waiting).toBe(false);
  });

  it(`takes a consumer for gone when it leaves an event unacknowledged ${GONE_AFTER_MS / 1000} s while a socket waits`, () => {
    const { consumers, connect, handed, started, tick } = setup();
    const first = connect();
    const second = connect();
    expect(handed(first)).toBe(false);
    tick(GONE_AFTER_MS - 10);
    expect(handed(first)).toBe(false);
    consumers.acked(first, first.a); // an acknowledgement starts the time again
    tick(20);
    expect(handed(first)).toBe(false);
    tick(GONE_AFTER_MS);
    expect(handed(first)).toBe(true);
    consumers.dismiss(first);
    expect(first.closedWith).toEqual([1002, 'inactivity']);
    expect(started).toEqual([first, second]);
  });

  it('times nobody while no socket of the client waits', () => {
    const { connect, handed, tick } = setup();
    const only = connect();
    expect(handed(only)).toBe(false);
    tick(10 * GONE_AFTER_MS);
    expect(handed(only)).toBe(false);
    expect(only.a.unackedSince).toBeUndefined();
  });

  it('hands the queue to a socket that connects after the consumer was gone for long enough', () => {
    const { connect, handed, started, tick } = setup();
    const first = connect();
    const second = connect();
    handed(first);
    tick(GONE_AFTER_MS);
    const third = connect();
    expect(first.closedWith).toEqual([1002, 'inactivity']);
    // The socket that waited longest takes over; the new one waits for it.
    expect(started).toEqual([first, second]);
    expect(third.a.waiting).toBe(true);
  });
});
