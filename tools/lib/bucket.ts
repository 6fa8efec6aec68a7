import { CreateBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import type { BrowserOrigins } from '../../src/shared/config/browser-origins.js';

export interface BucketAccess {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const clientOf = (s3: BucketAccess) =>
  new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    forcePathStyle: true,
  });

/** Creates the bucket cargohold stores assets in, unless it exists (an operator's job in production). */
export async function ensureBucket(s3: BucketAccess, bucket: string): Promise<void> {
  const client = clientOf(s3);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    if ((err as Error).name !== 'BucketAlreadyOwnedByYou') throw err;
  } finally {
    client.destroy();
  }
}

/**
 * The origins a browser downloads assets from: those nginz allows, and `null`, the origin a
 * browser sends after the backend's download redirect took it to another origin (the fetch
 * standard's tainted origin). Presigned URLs carry their own authorization: no credentials.
 */
export function bucketCorsOrigins(origins: BrowserOrigins): string[] {
  const anyPort = origins.anyPortHosts.flatMap((h) => [
    `http://${h}`,
    `https://${h}`,
    `http://${h}:*`,
    `https://${h}:*`,
  ]);
  return [...origins.exact, ...anyPort, 'null'];
}

/** Lets pages on these origins read the bucket's objects (the download redirect's target). */
export async function allowBrowserDownloads(s3: BucketAccess, bucket: string, origins: string[]): Promise<void> {
  const client = clientOf(s3);
  try {
    const rule = {
      AllowedOrigins: origins,
      AllowedMethods: ['GET', 'HEAD'],
      AllowedHeaders: ['*'],
      MaxAgeSeconds: 3000,
    };
    await client.send(new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: [rule] } }));
  } finally {
    client.destroy();
  }
}
