import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { ensureBucket } from '../../../tools/lib/bucket.js';
import { localObjectStore } from '../../../tools/lib/local-object-store.js';
import { fetchRedirect, getAsset, uploadAsset } from '../../helpers/assets.js';
import { startEditedBackend } from '../../helpers/backend.js';
import { createUser } from '../../helpers/users.js';

/** A backend on the local object store `npm start` runs (free ports), both on `stateDir`. */
async function startOnLocalStore(stateDir: string) {
  const objstore = { endpoint: 'http://127.0.0.1:0', bucket: 'assets', region: 'us-east-1' };
  const store = await localObjectStore(objstore, stateDir);
  try {
    await ensureBucket(store, objstore.bucket);
    const backend = await startEditedBackend([['cargohold.yaml', ['objstore', 'endpoint'], store.endpoint]], {
      stateDir,
      objectStore: store,
    });
    const stop = async () => {
      await backend.stop();
      await store.stop();
    };
    return { backend, stop };
  } catch (e) {
    await store.stop();
    throw e;
  }
}

describe("npm start's local object store", () => {
  it('still serves the bytes of an asset after the backend restarts on the same state dir', {
    timeout: 180_000,
  }, async () => {
    const stateDir = mkdtempSync(join(inject('tmpRoot'), 'store-restart-'));
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7) & 0xff);

    const first = await startOnLocalStore(stateDir);
    let key: string;
    let token: string;
    try {
      const user = await createUser(first.backend.publicUrl, first.backend.internalUrl);
      const up = await uploadAsset(first.backend.publicUrl, user.token, bytes);
      expect(up.status, up.text).toBe(201);
      key = up.body.key;
      token = user.token;
    } finally {
      await first.stop();
    }

    const second = await startOnLocalStore(stateDir);
    try {
      const r = await getAsset(second.backend.publicUrl, `/v8/assets/example.com/${key}`, token);
      expect(r.status, r.text).toBe(302);
      const got = await fetchRedirect(r);
      expect(got.status).toBe(200);
      expect(Buffer.compare(got.bytes, Buffer.from(bytes))).toBe(0);
    } finally {
      await second.stop();
    }
  });
});
