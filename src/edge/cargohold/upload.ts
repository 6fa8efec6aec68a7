import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { cargoholdErrors } from '../api/errors/cargohold.js';
import { json } from '../api/schemas/common.js';
import { self, selfQualified } from '../api/self.js';
import { database } from '../db/client.js';
import { assetStore } from './asset-store.js';
import { assetJson, assetSchema } from './asset-json.js';
import { BodyEndedEarly } from './byte-reader.js';
import { uploadAllowance } from './upload-allowance.js';
import { boundaryOf, MalformedUpload, readUpload, type UploadParts } from './multipart.js';
import { type AssetObjectMetadata, objectStore } from './object-store.js';
import { expiryOf, newAssetKey, retentionDigit, retentionSchema } from './asset-key.js';
import { newAssetToken } from './tokens.js';
import { log } from '../../shared/log.js';
import { withoutAbsentNulls } from '../api/null-as-absent.js';
import { deps } from '../api/deps.js';

/** The metadata part; fields of later clients (`domain`, audit fields) are accepted and ignored. */
const uploadMetadata = z.looseObject({
  public: z.boolean().default(false),
  retention: retentionSchema.default('persistent'),
});

const multipartBody = {
  body: {
    required: true,
    description:
      'Two parts: `application/json` metadata (`public`, `retention`), then the bytes (`application/octet-stream` or any media type) with `Content-Length` (optional `Content-MD5`)',
    content: { 'multipart/mixed': { schema: z.string().openapi({ format: 'binary' }) } },
  },
} as const;

async function partsOf(c: Context<AppEnv>): Promise<UploadParts> {
  const boundary = boundaryOf(c.req.header('content-type') ?? null);
  const body = c.req.raw.body;
  if (boundary === undefined || body === null)
    throw new ApiError(cargoholdErrors.malformedUpload, 'Expected a multipart/mixed body with a boundary');
  try {
    return await readUpload(body, boundary);
  } catch (err) {
    if (err instanceof MalformedUpload) throw new ApiError(cargoholdErrors.malformedUpload, err.message);
    if (err instanceof BodyEndedEarly) throw new ApiError(cargoholdErrors.incompleteBody);
    throw err;
  }
}

function metadataOf(text: string): z.infer<typeof uploadMetadata> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(cargoholdErrors.malformedUpload, 'The metadata part is not JSON');
  }
  const parsed = uploadMetadata.safeParse(withoutAbsentNulls(uploadMetadata, value));
  if (!parsed.success) throw new ApiError(cargoholdErrors.malformedUpload, 'Invalid asset metadata');
  return parsed.data;
}

/** Streams the data part to object storage; the closing boundary must follow the declared bytes. */
async function store(
  c: Context<AppEnv>,
  key: string,
  parts: UploadParts,
  metadata: AssetObjectMetadata,
): Promise<void> {
  const verifyEnd = async () => {
    if (!(await parts.finish()))
      throw new ApiError(cargoholdErrors.malformedUpload, 'Expected the closing boundary after the data');
  };
  try {
    await objectStore(c.env, c.get('config').cargohold.objstore).put(
      key,
      parts.length,
      parts.data,
      metadata,
      verifyEnd,
    );
  } catch (err) {
    await parts.cancel();
    if (err instanceof BodyEndedEarly) throw new ApiError(cargoholdErrors.incompleteBody);
    if (err instanceof ApiError) throw err;
    log('error', 'asset upload to object storage failed', { key, error: String(err) });
    throw new ApiError(cargoholdErrors.storageFailure);
  }
}

/** Reads, checks and stores an upload of `owner`'s, at most `maxBytes` long; its asset row. */
export async function acceptUpload(c: Context<AppEnv>, owner: string, maxBytes: number) {
  const config = c.get('config');
  const db = database(c.env.DB);
  const parts = await partsOf(c);
  let meta: z.infer<typeof uploadMetadata>;
  try {
    meta = metadataOf(parts.metadata);
    if (parts.length <= 0) throw new ApiError(cargoholdErrors.invalidLength);
    if (parts.length > maxBytes) throw new ApiError(cargoholdErrors.assetTooLarge);
  } catch (err) {
    await parts.cancel(); // refused before a byte of the data is read
    throw err;
  }
  const key = newAssetKey(meta.retention);
  const token = meta.public ? null : newAssetToken();
  await store(c, key, parts, { user: owner, token: token ?? undefined });
  const now = Date.now();
  const row = {
    key,
    owner,
    token,
    retention: retentionDigit(meta.retention),
    size: parts.length,
    createdAt: now,
    expiresAt: expiryOf(meta.retention, now) ?? null,
  };
  try {
    await assetStore.insert(db, row);
  } catch (err) {
    await objectStore(c.env, config.cargohold.objstore)
      .delete(key)
      .catch(() => undefined);
    throw err;
  }
  return row;
}

async function upload(c: Context<AppEnv>) {
  const config = c.get('config');
  const user = await deps(c).users.account(selfQualified(c));
  const row = await acceptUpload(c, self(c).user, await uploadAllowance(database(c.env.DB), config, user));
  const domain = config.cargohold.settings.federationDomain;
  // wire's Location is relative and names the v4 path whatever the version.
  return c.json(assetJson(row, domain), 201, { location: `assets/v4/${domain}/${row.key}` });
}

export const uploadRoute = {
  method: 'post',
  request: multipartBody,
  errors: [
    cargoholdErrors.malformedUpload,
    cargoholdErrors.invalidLength,
    cargoholdErrors.incompleteBody,
    cargoholdErrors.assetTooLarge,
    cargoholdErrors.unverifiedUser,
    cargoholdErrors.userNotFound,
    cargoholdErrors.fileSharingDisabled,
    cargoholdErrors.storageFailure,
  ],
  responses: { 201: { description: 'Asset stored; `Location` names its download path', ...json(assetSchema) } },
} as const;

export const uploadAsset = endpoint({ name: 'assets-upload', path: '/assets', from: 2, ...uploadRoute }, upload);

export const uploadAssetV3 = endpoint(
  { name: 'assets-upload-v3', path: '/assets/v3', until: 2, ...uploadRoute },
  upload,
);
