import type { Attachment, Sockets } from './sockets.js';

/** How cannon closes an `/events` socket whose client went silent. */
const INACTIVITY_CLOSE = { code: 1002, reason: 'inactivity' } as const;

/**
 * cannon's inactivity check of `/events` sockets (`wsOpts`), as far as a Durable Object can see.
 *
 * cannon waits `activityTimeout` for a ping from the client, then pings itself and waits
 * `pongTimeout` for the pong; without one it closes with 1002 `inactivity`. Here the runtime
 * answers protocol pings without telling us and cannot send one (workerd has no `ping()`), so the
 * evidence is the frames the client sends (acks; `/events` takes nothing else, an application-level
 * `ping` closes it as cannon does). A socket silent for `activityTimeout + pongTimeout` is closed
 * by the object's alarm. `/await` sockets are never watched. The alarm is this object's only one.
 */
export class InactivityWatch {
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly sockets: Sockets,
  ) {}

  /** A new `/events` socket: its attachment starts the clock; the alarm is due by its deadline. */
  async start(ws: WebSocket, a: Attachment, idleLimitMs: number, now: number): Promise<void> {
    if (!(idleLimitMs > 0)) return;
    this.sockets.update(ws, { ...a, idleLimitMs, lastSeen: now });
    await this.dueBy(now + idleLimitMs);
  }

  /** The client sent a frame. Returns the attachment as now stored. */
  heard(ws: WebSocket, a: Attachment, now: number): Attachment {
    if (a.idleLimitMs === undefined) return a;
    const updated = { ...a, lastSeen: now };
    this.sockets.update(ws, updated);
    return updated;
  }

  /** The alarm: closes the sockets past their deadline and sets the alarm for the next one. */
  async sweep(now: number): Promise<void> {
    let next: number | undefined;
    for (const ws of this.sockets.all('events')) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      const a = this.sockets.attachment(ws);
      if (a.idleLimitMs === undefined) continue;
      const deadline = (a.lastSeen ?? 0) + a.idleLimitMs;
      if (deadline <= now) this.close(ws);
      else next = Math.min(next ?? deadline, deadline);
    }
    if (next !== undefined) await this.ctx.storage.setAlarm(next);
  }

  private close(ws: WebSocket): void {
    this.sockets.forget(ws);
    try {
      ws.close(INACTIVITY_CLOSE.code, INACTIVITY_CLOSE.reason);
    } catch {
      // already closing
    }
  }

  private async dueBy(deadline: number): Promise<void> {
    const at = await this.ctx.storage.getAlarm();
    if (at === null || at > deadline) await this.ctx.storage.setAlarm(deadline);
  }
}
