import {
  CreateBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { inject } from 'vitest';

/**
 * A bucket of the test object store, read directly to see what is (not) stored: the one the
 * shipped configuration names, or another that a file's own backend uses.
 */
export function testBucket(name?: string) {
  const s3 = inject('objectStore');
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    forcePathStyle: true,
  });
  const Bucket = name ?? s3.bucket;
  return {
    name: Bucket,
    endpoint: s3.endpoint,
    async create(): Promise<void> {
      await client.send(new CreateBucketCommand({ Bucket }));
    },
    async keys(): Promise<string[]> {
      const r = await client.send(new ListObjectsV2Command({ Bucket }));
      return (r.Contents ?? []).map((o) => o.Key ?? '');
    },
    async exists(Key: string): Promise<boolean> {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key }));
        return true;
      } catch (err) {
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
        throw err;
      }
    },
    /** Multipart uploads begun and neither completed nor aborted. */
    async openUploads(): Promise<string[]> {
      const r = await client.send(new ListMultipartUploadsCommand({ Bucket }));
      return (r.Uploads ?? []).map((u) => u.Key ?? '');
    },
  };
}
