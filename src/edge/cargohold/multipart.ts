import { ByteReader } from './byte-reader.js';

/**
 * An upload body, `multipart/mixed` with exactly two parts: the JSON metadata, then the asset's
 * bytes with their length. The bytes are not read here: `data` hands them on as they arrive.
 */
export interface UploadParts {
  metadata: string;
  /** The data part's Content-Length. */
  length: number;
  /** Content-MD5 as sent (base64); accepted, not checked, as wire's cargohold does. */
  md5: string | undefined;
  /** Exactly `length` bytes; throws BodyEndedEarly when the body is shorter. */
  data: AsyncIterable<Uint8Array>;
  /** After `data` is consumed: the closing boundary must follow, and nothing else. */
  finish(): Promise<boolean>;
  /** Stops reading the request body. */
  cancel(): Promise<void>;
}

export class MalformedUpload extends Error {}

const MAX_HEADER_LINE = 8 * 1024;
const MAX_METADATA = 64 * 1024;
/** Line breaks and spaces that may follow the close delimiter. */
const MAX_EPILOGUE = 64;

/** The boundary of a `multipart/mixed` Content-Type, or undefined for any other type. */
export function boundaryOf(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
  const [type, ...params] = contentType.split(';').map((s) => s.trim());
  if (type?.toLowerCase() !== 'multipart/mixed') return undefined;
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq > 0 && p.slice(0, eq).trim().toLowerCase() === 'boundary') {
      const value = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (/^[\x21-\x7e ]{1,70}$/.test(value)) return value;
    }
  }
  return undefined;
}

type PartHeaders = Map<string, string>;

const mediaType = (value: string | undefined) => value?.split(';')[0]?.trim().toLowerCase();

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}$`);
const isMediaType = (value: string | undefined) => MEDIA_TYPE.test(mediaType(value) ?? '');

/** A part's headers up to the empty line; only the names this upload allows. */
async function readHeaders(r: ByteReader, allowed: readonly string[]): Promise<PartHeaders> {
  const headers: PartHeaders = new Map();
  for (;;) {
    const line = await r.line(MAX_HEADER_LINE);
    if (line === undefined) throw new MalformedUpload('The part headers end early');
    if (line === '') return headers;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    if (colon <= 0 || !allowed.includes(name))
      throw new MalformedUpload(`Unexpected part header: ${line.slice(0, 80)}`);
    headers.set(name, line.slice(colon + 1).trim());
  }
}

function lengthOf(headers: PartHeaders): number | undefined {
  const value = headers.get('content-length');
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) throw new MalformedUpload('Invalid Content-Length');
  return Number(value);
}

async function expectLine(r: ByteReader, expected: string, what: string): Promise<void> {
  if ((await r.line(MAX_HEADER_LINE)) !== expected) throw new MalformedUpload(`Expected ${what}`);
}

/** The metadata part's JSON text: exactly its Content-Length bytes, then the next boundary. */
async function readMetadata(r: ByteReader, headers: PartHeaders, delimiter: string): Promise<string> {
  const length = lengthOf(headers);
  if (length === undefined) throw new MalformedUpload('The metadata part needs a Content-Length');
  if (length > MAX_METADATA) throw new MalformedUpload('The metadata part is too large');
  const bytes = await r.exact(length);
  if (bytes === undefined) throw new MalformedUpload('The metadata part ends early');
  await expectLine(r, '', 'CRLF after the metadata');
  await expectLine(r, delimiter, 'the boundary after the metadata');
  return new TextDecoder().decode(bytes);
}

/** Reads the two part headers and the metadata; the data stays in the stream. */
export async function readUpload(body: ReadableStream<Uint8Array>, boundary: string): Promise<UploadParts> {
  const r = new ByteReader(body);
  const delimiter = `--${boundary}`;
  try {
    await expectLine(r, delimiter, 'the first boundary');
    const metaHeaders = await readHeaders(r, ['content-type', 'content-length']);
    if (mediaType(metaHeaders.get('content-type')) !== 'application/json')
      throw new MalformedUpload('The first part must be application/json');
    const metadata = await readMetadata(r, metaHeaders, delimiter);
    const dataHeaders = await readHeaders(r, ['content-type', 'content-length', 'content-md5']);
    // Any media type, as wire-server takes it; the bytes are stored as application/octet-stream whatever it says.
    if (!isMediaType(dataHeaders.get('content-type')))
      throw new MalformedUpload('The data part needs a valid Content-Type');
    const length = lengthOf(dataHeaders);
    if (length === undefined) throw new MalformedUpload('The data part needs a Content-Length');
    return {
      metadata,
      length,
      md5: dataHeaders.get('content-md5'),
      data: r.chunks(length),
      finish: async () => {
        const close = `\r\n${delimiter}--`;
        const rest = await r.rest(close.length + MAX_EPILOGUE);
        if (rest === undefined) return false;
        const text = String.fromCharCode(...rest);
        // Clients end the body with blank lines after the close delimiter; wire's cargohold takes them.
        return text.startsWith(close) && /^[\r\n \t]*$/.test(text.slice(close.length));
      },
      cancel: () => r.cancel(),
    };
  } catch (err) {
    await r.cancel();
    throw err;
  }
}
