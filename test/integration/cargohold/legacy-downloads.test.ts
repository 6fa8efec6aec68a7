import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { api, createUser } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();

describe("v0/v1's downloads of pre-v3 assets", () => {
  it('are served until v2, and find no such asset (only v3 assets are stored here)', async () => {
    const me_ = api(publicUrl, (await createUser(publicUrl, internalUrl)).token);
    const [conv, asset] = [crypto.randomUUID(), crypto.randomUUID()];
    for (const path of [
      `/v1/assets/${asset}?conv_id=${conv}`,
      `/v1/conversations/${conv}/assets/${asset}`,
      `/v0/conversations/${conv}/otr/assets/${asset}`,
    ]) {
      const r = await me_.get(path);
      expect([r.status, r.body], path).toEqual([404, { code: 404, label: 'not-found', message: 'Asset not found' }]);
    }
    expect((await me_.get(`/v1/assets/${asset}`)).status).toBe(400); // conv_id is required
    for (const path of [
      `/v2/assets/${asset}?conv_id=${conv}`,
      `/v2/conversations/${conv}/assets/${asset}`,
      `/v2/conversations/${conv}/otr/assets/${asset}`,
    ])
      expect((await me_.get(path)).body.label, path).toBe('no-endpoint');
  });
});
