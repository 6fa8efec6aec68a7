const encoder = new TextEncoder();

/**
 * One delivery's payload as its recipients' frames need it: the JSON text is `head + middle + tail`,
 * where head and tail are the delivery's and middle each recipient's own part (often empty).
 */
export class Payload {
  private awaitBefore: string | undefined;
  private awaitAfter: string | undefined;

  constructor(
    readonly head: string,
    readonly tail: string,
    /** Pushed to sockets, never stored or queued. */
    readonly transient: boolean,
  ) {}

  json(middle: string): string {
    return middle === '' ? this.head + this.tail : this.head + middle + this.tail;
  }

  /** `{"id":…,"transient":…,"payload":…}` as UTF-8; the parts around id and middle are joined once per delivery. */
  awaitFrame(id: string, middle: string): Uint8Array {
    this.awaitBefore ??= `","transient":${this.transient},"payload":${this.head}`;
    this.awaitAfter ??= `${this.tail}}`;
    return encoder.encode(`{"id":"${id}${this.awaitBefore}${middle}${this.awaitAfter}`);
  }
}

/** One notification on its way to a user's sockets. */
export interface Outgoing {
  id: string;
  payload: Payload;
  /** The recipient's own part of the payload (see Payload). */
  middle: string;
  /** Only these clients' sockets get it (all of the user's when null). */
  clients: string[] | null;
  /** Who gets it on `/await` (see Route): all of the user's sockets (null), some clients' or none (undefined). */
  listed: readonly string[] | null | undefined;
  /** Whether the user's temporary `/events` consumers get it (see Route). */
  temporary: boolean;
  /** The connection that caused it: that socket does not get it back. */
  origin: string | undefined;
}
