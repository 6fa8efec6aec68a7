import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { call, wireError } from '../helpers/http.js';
import { api, connect, createUser, type TestUser } from '../helpers/users.js';
import { disabledEverywhere } from '../helpers/versions.js';

const q = (id: string) => ({ id, domain: 'example.com' });

// v9 is the development version, disabled in the shipped configuration: this backend enables it.
describe('v9 additions', () => {
  let b: TestBackend;
  let a: TestUser;
  let other: TestUser;
  let conv: string;
  beforeAll(async () => {
    b = await startEditedBackend(disabledEverywhere([]));
    [a, other] = [await createUser(b.publicUrl, b.internalUrl), await createUser(b.publicUrl, b.internalUrl)];
    await connect(b.publicUrl, a, other);
    const r = await api(b.publicUrl, a.token).post('/v8/conversations', {
      qualified_users: [q(other.id)],
      conversation_role: 'wire_member',
    });
    expect(r.status, r.text).toBe(201);
    conv = r.body.qualified_id.id;
  });
  afterAll(() => b?.stop());

  describe('GET /time', () => {
    it('answers the UTC time to the second, with a token only, and not before v9', async () => {
      const before = Math.floor(Date.now() / 1000) * 1000;
      const r = await api(b.publicUrl, a.token).get('/v9/time');
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.body)).toEqual(['time']);
      expect(r.body.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(Date.parse(r.body.time)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(r.body.time)).toBeLessThanOrEqual(Date.now());
      expect((await call(b.publicUrl, '/v9/time')).status).toBe(401);
      expect(await api(b.publicUrl, a.token).get('/v8/time')).toMatchObject({
        status: 404,
        body: wireError(404, 'no-endpoint'),
      });
    });
  });

  describe('GET /conversations/{cnv_domain}/{cnv}/self', () => {
    const self = (u: TestUser, id: string, domain = 'example.com', v = 'v9') =>
      api(b.publicUrl, u.token).get(`/${v}/conversations/${domain}/${id}/self`);

    it("answers the caller's Member object with every key, following its updates", async () => {
      const mine = await self(a, conv);
      expect(mine.status, mine.text).toBe(200);
      expect(mine.body).toEqual({
        qualified_id: q(a.id),
        id: a.id,
        conversation_role: 'wire_admin',
        service: null,
        status: 0,
        status_ref: '0.0',
        status_time: '1970-01-01T00:00:00.000Z',
        otr_muted_status: null,
        otr_muted_ref: null,
        otr_archived: false,
        otr_archived_ref: null,
        hidden: false,
        hidden_ref: null,
      });
      expect((await self(other, conv)).body).toMatchObject({ id: other.id, conversation_role: 'wire_member' });
      const update = await api(b.publicUrl, other.token).put(`/v9/conversations/example.com/${conv}/self`, {
        otr_archived: true,
        otr_muted_status: 3,
      });
      expect(update.status, update.text).toBe(200);
      expect((await self(other, conv)).body).toMatchObject({ otr_archived: true, otr_muted_status: 3 });
    });

    it('answers null to a non-member or for an unknown local conversation, 404 for a remote one, 400 for bad ids', async () => {
      const stranger = await createUser(b.publicUrl, b.internalUrl);
      for (const r of [await self(stranger, conv), await self(a, crypto.randomUUID())]) {
        expect(r.status).toBe(200);
        expect(r.text).toBe('null');
      }
      expect(await self(a, conv, 'remote.example.org')).toMatchObject({
        status: 404,
        body: wireError(404, 'no-conversation'),
      });
      expect(await self(a, 'not-a-uuid')).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
      expect((await call(b.publicUrl, `/v9/conversations/example.com/${conv}/self`)).status).toBe(401);
    });

    it('is not in v8, where the path has only PUT', async () => {
      expect(await self(a, conv, 'example.com', 'v8')).toMatchObject({
        status: 405,
        body: wireError(405, 'method-not-allowed'),
      });
    });
  });
});
