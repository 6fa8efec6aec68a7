const encoder = new TextEncoder();

/**
 * One delivery's payload as its recipients' frames need it: the JSON text is `head + middle + tail`,
 * where head and tail are the delivery's and middle each recipient's own part (often empty).
 *
 * `/await` frames are built as bytes with the shared parts encoded once per delivery, not once
 * per recipient as one concatenated string each.
 */
export class Payload {
  private awaitHead: Uint8Array | undefined;
  private awaitTail: Uint8Array | undefined;
  private scratch = new Uint8Array(0);

  constructor(
    readonly head: string,
    readonly tail: string,
    private readonly transient: boolean,
  ) {}

  json(middle: string): string {
    return middle === '' ? this.head + this.tail : this.head + middle + this.tail;
  }

  /** `{"id":…,"transient":…,"payload":…}` as UTF-8, a buffer of its own (sockets keep what they are sent). */
  awaitFrame(id: string, middle: string): Uint8Array {
    this.awaitHead ??= encoder.encode(`","transient":${this.transient},"payload":${this.head}`);
    this.awaitTail ??= encoder.encode(`${this.tail}}`);
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const most = ID_OPEN.length + id.length * 3 + this.awaitHead.length + middle.length * 3 + this.awaitTail.length;
    if (this.scratch.length < most) this.scratch = new Uint8Array(Math.max(most, this.scratch.length * 2));
    const s = this.scratch;
    s.set(ID_OPEN, 0);
    let at = ID_OPEN.length + encoder.encodeInto(id, s.subarray(ID_OPEN.length)).written;
    s.set(this.awaitHead, at);
    at += this.awaitHead.length;
    if (middle !== '') at += encoder.encodeInto(middle, s.subarray(at)).written;
    s.set(this.awaitTail, at);
    return s.slice(0, at + this.awaitTail.length);
  }
}

const ID_OPEN = encoder.encode('{"id":"');

/** One notification on its way to a user's sockets. */
export interface Outgoing {
  id: string;
  payload: Payload;
  /** The recipient's own part of the payload (see Payload). */
  middle: string;
  /** Only these clients' sockets get it (all of the user's when null). */
  clients: string[] | null;
  transient: boolean;
  /** The connection that caused it: that socket does not get it back. */
  origin: string | undefined;
}
