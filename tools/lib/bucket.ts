import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

export interface BucketAccess {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Creates the bucket cargohold stores assets in, unless it exists (an operator's job in production). */
export async function ensureBucket(s3: BucketAccess, bucket: string): Promise<void> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    forcePathStyle: true,
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    if ((err as Error).name !== 'BucketAlreadyOwnedByYou') throw err;
  } finally {
    client.destroy();
  }
}
