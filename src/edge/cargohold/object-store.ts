import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { CargoholdConfig } from '../../shared/config/schemas/cargohold.js';
import { ApiError } from '../api/errors/api-error.js';
import { WebCryptoSha256 } from './web-crypto-sha256.js';
import { commonErrors } from '../api/errors/common.js';

/** Bytes per part of a multipart upload; smaller assets go up in one PUT. S3's minimum is 5 MiB. */
const PART_SIZE = 8 * 1024 * 1024;

/** What an object says of its asset, as wire's cargohold keeps it: `x-amz-meta-user` and `-token`. */
export interface AssetObjectMetadata {
  user: string;
  token?: string | undefined;
}

/** Where assets' bytes live: an S3-compatible bucket. */
export interface ObjectStore {
  /**
   * Stores exactly `length` bytes from `data` under `key`. `beforeCommit` runs once the bytes are
   * read and before the object becomes visible; if anything throws, nothing is left behind.
   */
  put(
    key: string,
    length: number,
    data: AsyncIterable<Uint8Array>,
    metadata: AssetObjectMetadata,
    beforeCommit: () => Promise<void>,
  ): Promise<void>;
  /** Replaces the object's metadata (a copy onto itself); the bytes stay. */
  setMetadata(key: string, metadata: AssetObjectMetadata): Promise<void>;
  /** A GET URL for `key` signed for `endpoint`'s host, valid `ttlSeconds`. */
  presignGet(key: string, endpoint: string, ttlSeconds: number): Promise<string>;
  delete(key: string): Promise<void>;
}

type ObjStoreConfig = CargoholdConfig['objstore'];

function credentialsOf(env: Env) {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    throw new ApiError(
      commonErrors.invalidConfiguration,
      'Object storage credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) are not set',
    );
  return { accessKeyId, secretAccessKey };
}

function clientFor(endpoint: string, region: string, credentials: { accessKeyId: string; secretAccessKey: string }) {
  return new S3Client({
    endpoint,
    region,
    credentials,
    forcePathStyle: true,
    sha256: WebCryptoSha256,
    // No checksum of an empty body in presigned URLs, no CRC headers an older S3 server may refuse.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Parts of exactly PART_SIZE bytes (the last one shorter), copied out of the incoming chunks. */
async function* parts(data: AsyncIterable<Uint8Array>, length: number): AsyncGenerator<Uint8Array> {
  let left = length;
  let part = new Uint8Array(Math.min(PART_SIZE, left));
  let filled = 0;
  for await (let chunk of data) {
    while (chunk.byteLength > 0) {
      const n = Math.min(chunk.byteLength, part.byteLength - filled);
      part.set(chunk.subarray(0, n), filled);
      filled += n;
      chunk = chunk.subarray(n);
      if (filled === part.byteLength) {
        yield part;
        left -= filled;
        part = new Uint8Array(Math.min(PART_SIZE, left));
        filled = 0;
      }
    }
  }
}

const s3Metadata = (m: AssetObjectMetadata): Record<string, string> =>
  m.token === undefined ? { user: m.user } : { user: m.user, token: m.token };

function s3Store(
  client: S3Client,
  conf: ObjStoreConfig,
  credentials: { accessKeyId: string; secretAccessKey: string },
): ObjectStore {
  const Bucket = conf.bucket;
  const presigners = new Map<string, S3Client>();

  async function putMultipart(
    Key: string,
    length: number,
    data: AsyncIterable<Uint8Array>,
    Metadata: Record<string, string>,
    beforeCommit: () => Promise<void>,
  ) {
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket, Key, Metadata, ContentType: 'application/octet-stream' }),
    );
    const done: { ETag: string; PartNumber: number }[] = [];
    let inFlight: Promise<void> = Promise.resolve();
    try {
      let PartNumber = 0;
      // One part uploads while the next is read from the request.
      for await (const Body of parts(data, length)) {
        const n = ++PartNumber;
        await inFlight;
        inFlight = client
          .send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: n, Body, ContentLength: Body.byteLength }))
          .then(({ ETag }) => void done.push({ ETag: ETag ?? '', PartNumber: n }));
      }
      await inFlight;
      await beforeCommit();
      done.sort((a, b) => a.PartNumber - b.PartNumber);
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: done } }),
      );
    } catch (err) {
      await inFlight.catch(() => undefined);
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
      throw err;
    }
  }

  return {
    async put(Key, length, data, metadata, beforeCommit) {
      const Metadata = s3Metadata(metadata);
      if (length > PART_SIZE) return putMultipart(Key, length, data, Metadata, beforeCommit);
      for await (const Body of parts(data, length)) {
        await beforeCommit();
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key,
            Body,
            ContentLength: length,
            ContentType: 'application/octet-stream',
            Metadata,
          }),
        );
      }
    },
    async setMetadata(Key, metadata) {
      await client.send(
        new CopyObjectCommand({
          Bucket,
          Key,
          CopySource: `${Bucket}/${encodeURIComponent(Key)}`,
          MetadataDirective: 'REPLACE',
          Metadata: s3Metadata(metadata),
          ContentType: 'application/octet-stream',
        }),
      );
    },
    async presignGet(Key, endpoint, ttlSeconds) {
      let presigner = presigners.get(endpoint);
      if (!presigner) presigners.set(endpoint, (presigner = clientFor(endpoint, conf.region, credentials)));
      return getSignedUrl(presigner, new GetObjectCommand({ Bucket, Key }), { expiresIn: ttlSeconds });
    },
    async delete(Key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key }));
    },
  };
}

let cached: { conf: ObjStoreConfig; accessKeyId: string; store: ObjectStore } | undefined;

/** The bucket of cargohold's configuration, with one client per isolate. */
export function objectStore(env: Env, conf: ObjStoreConfig): ObjectStore {
  const credentials = credentialsOf(env);
  if (cached?.conf === conf && cached.accessKeyId === credentials.accessKeyId) return cached.store;
  const store = s3Store(clientFor(conf.endpoint, conf.region, credentials), conf, credentials);
  cached = { conf, accessKeyId: credentials.accessKeyId, store };
  return store;
}
