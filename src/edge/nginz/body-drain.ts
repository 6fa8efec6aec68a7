import type { Config } from '../../shared/config/index.js';

/**
 * A request body the edge can finish reading after a handler is done with it.
 *
 * workerd closes a keep-alive connection whose request body was not read to the end, without
 * telling the client (`Connection: close`); the client's next request on that socket then fails.
 * nginx discards unread bodies instead. The handler reads through a stream of ours that pulls
 * from the real body; cancelling it leaves the real body open, so `drain()` can read and discard
 * what is left before the response goes out.
 */
export interface DrainableRequest {
  req: Request;
  /** Reads and discards the rest of the body, up to `limit` bytes; beyond that the connection is given up. */
  drain(limit: number): Promise<void>;
}

const nothingToDrain = async () => {};

/**
 * Bytes asked of the connection per read. The runtime hands a body on in chunks of a few KB: a
 * large group's commit bundle (megabytes) would take hundreds of reads through the stream below,
 * each a few promises; one read here waits for this much (or the body's end).
 */
const READ_SIZE = 256 * 1024;

export function drainable(req: Request): DrainableRequest {
  if (req.body === null) return { req, drain: nothingToDrain };
  const source = req.body.getReader({ mode: 'byob' });
  const declared = Number(req.headers.get('content-length'));
  let left = Number.isSafeInteger(declared) && declared > 0 ? declared : Number.POSITIVE_INFINITY;
  let ended = false;
  const read = async () => {
    // At the declared end one more read (of at least a byte) finds the end.
    const size = Math.max(1, Math.min(left, READ_SIZE));
    const result = await source.readAtLeast(size, new Uint8Array(size));
    if (result.done) ended = true;
    else left -= result.value.byteLength;
    return result;
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel() {
        // The handler is done reading; the rest is the edge's to drain.
      },
    },
    { highWaterMark: 0 },
  );
  const drain = async (limit: number) => {
    let budget = limit;
    try {
      while (!ended) {
        if (budget <= 0) {
          await source.cancel();
          return;
        }
        const { done, value } = await read();
        if (!done) budget -= value.byteLength;
      }
    } catch {
      // The client went away mid-body: nothing is left to keep.
    }
  };
  return { req: new Request(req, { body }), drain };
}

/** Multipart framing around an asset's bytes: boundaries, part headers and the metadata part. */
const UPLOAD_FRAMING = 64 * 1024;

/**
 * The most the edge reads and discards after an early answer: the largest body any route accepts
 * (a location without a limit is an asset upload, bounded by cargohold's largest asset).
 */
export function drainLimit(config: Config): number {
  let limit = limits.get(config);
  if (limit === undefined) limits.set(config, (limit = largestBody(config)));
  return limit;
}

const limits = new WeakMap<Config, number>();

function largestBody(config: Config): number {
  const conf = config.nginz.nginx_conf;
  const sizes = [
    conf.default_client_max_body_size,
    ...conf.locations.flatMap((l) => (l.max_body_size === undefined ? [] : [l.max_body_size])),
  ];
  const unbounded = sizes.some((s) => !Number.isFinite(s));
  const finite = sizes.filter(Number.isFinite);
  return Math.max(...finite, unbounded ? config.cargohold.settings.maxTotalBytes + UPLOAD_FRAMING : 0);
}
