/** The body ended before the bytes a header announced. */
export class BodyEndedEarly extends Error {
  constructor() {
    super('The request body ended early');
  }
}

const CR = 13;
const LF = 10;

/**
 * Pull-based reading of a byte stream: lines for headers, then an exact number of bytes handed on
 * chunk by chunk as they arrive, so a large body is never held whole.
 */
export class ByteReader {
  private buffered: Uint8Array = new Uint8Array(0);
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
  }

  /** Reads one more chunk into the buffer; false at the end of the stream. */
  private async more(): Promise<boolean> {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await this.reader.read();
    } catch {
      throw new BodyEndedEarly(); // the client went away mid-body
    }
    const { done, value } = next;
    if (done) return false;
    if (this.buffered.byteLength === 0) this.buffered = value;
    else {
      const joined = new Uint8Array(this.buffered.byteLength + value.byteLength);
      joined.set(this.buffered);
      joined.set(value, this.buffered.byteLength);
      this.buffered = joined;
    }
    return true;
  }

  private take(n: number): Uint8Array {
    const out = this.buffered.subarray(0, n);
    this.buffered = this.buffered.subarray(n);
    return out;
  }

  /**
   * The next line without its CRLF, as latin-1 text. Undefined when the stream ends first or the
   * line would be longer than `max` bytes (headers are short; this bounds what is buffered).
   */
  async line(max: number): Promise<string | undefined> {
    let from = 0;
    for (;;) {
      for (let i = from; i + 1 < this.buffered.byteLength; i++) {
        if (this.buffered[i] === CR && this.buffered[i + 1] === LF) {
          const text = String.fromCharCode(...this.take(i));
          this.take(2);
          return text;
        }
      }
      from = Math.max(0, this.buffered.byteLength - 1);
      if (this.buffered.byteLength > max + 2 || !(await this.more())) return undefined;
    }
  }

  /** Exactly `n` bytes (n small), or undefined when the stream ends first. */
  async exact(n: number): Promise<Uint8Array | undefined> {
    while (this.buffered.byteLength < n) if (!(await this.more())) return undefined;
    return this.take(n).slice();
  }

  /** Exactly `n` bytes, in the chunks they arrive in; throws BodyEndedEarly if the stream ends first. */
  async *chunks(n: number): AsyncGenerator<Uint8Array> {
    let left = n;
    while (left > 0) {
      if (this.buffered.byteLength === 0 && !(await this.more())) throw new BodyEndedEarly();
      const chunk = this.take(Math.min(left, this.buffered.byteLength));
      left -= chunk.byteLength;
      yield chunk;
    }
  }

  /** Whatever follows, up to `max` bytes; undefined if there is more than that. */
  async rest(max: number): Promise<Uint8Array | undefined> {
    while (this.buffered.byteLength <= max) if (!(await this.more())) return this.take(this.buffered.byteLength);
    await this.cancel();
    return undefined;
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}
