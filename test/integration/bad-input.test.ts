import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../helpers/backend.js';
import { call, wireError } from '../helpers/http.js';
import { createUser } from '../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();
const someone = '00000000-0000-4000-8000-000000000001';

/** Every JSON endpoint of this surface: a body it cannot use is a 400 with a label, never a 500. */
const jsonEndpoints: Array<[method: string, path: string, wrongTypes: unknown]> = [
  ['POST', '/v8/register', { name: 42 }],
  ['POST', '/v8/login', { email: ['a'], password: 'x' }],
  ['POST', '/v8/activate', { code: 123456, dryrun: 'no' }],
  ['POST', '/v8/activate/send', { email: false }],
  ['POST', '/v8/password-reset/complete', { key: 1, code: 2, password: 3 }],
  ['POST', '/v8/verification-code/send', { action: 'fly', email: 'a@example.com' }],
  ['PUT', '/v8/self', { accent_id: 'red' }],
  ['PUT', '/v8/self/locale', { locale: 7 }],
  ['PUT', '/v8/self/handle', { handle: null }],
  ['PUT', '/v8/self/password', { new_password: 12345678 }],
  ['PUT', '/v8/self/supported-protocols', { supported_protocols: 'mls' }],
  ['POST', '/v8/handles', { handles: 'abc' }],
  ['POST', '/v8/list-users', { qualified_ids: [{ id: 'nope', domain: 'example.com' }] }],
  ['POST', '/v8/clients', { type: 'permanent', prekeys: [{ id: -1, key: 'x' }], lastkey: { id: 65535, key: 'x' } }],
  ['PUT', '/v8/clients/abc', { label: 5 }],
  ['POST', '/v8/users/list-clients', { qualified_users: [] }],
  ['POST', '/v8/users/list-prekeys', { 'example.com': { [someone]: 'abc' } }],
  ['PUT', `/v8/connections/example.com/${someone}`, { status: 42 }],
  ['POST', '/v8/list-connections', { size: 'many' }],
  ['POST', '/v8/cookies/remove', { password: 'secret-password', ids: ['x'] }],
  ['DELETE', '/v8/self', { password: 7 }],
  ['PUT', `/v8/users/${someone}/email`, { email: 42 }],
  ['POST', '/v8/broadcast/otr/messages', { sender: 12, recipients: [] }],
  ['PUT', `/v8/conversations/example.com/${someone}/add-permission`, { add_permission: 'nobody' }],
];

describe('bad input on every JSON endpoint', () => {
  it.each(jsonEndpoints)(
    '%s %s: malformed JSON, wrong types, oversize fields → 400',
    async (method, path, wrongTypes) => {
      const u = await createUser(publicUrl, internalUrl);
      const send = (body: string) =>
        call(publicUrl, path, {
          method,
          headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
          body,
        });
      for (const body of ['{"unterminated": ', '[1, 2', JSON.stringify(wrongTypes)]) {
        const r = await send(body);
        expect(r.status, `${body} → ${r.text}`).toBe(400);
        expect(r.body).toEqual(wireError(400, 'bad-request'));
      }
    },
  );

  it('oversize strings are refused with a label, not stored', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const headers = { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' };
    const long = 'x'.repeat(300_000);
    for (const [path, body] of [
      ['/v8/self', { name: long }],
      ['/v8/self', { text_status: long }],
      ['/v8/self/handle', { handle: long }],
    ] as const) {
      const r = await call(publicUrl, path, { method: 'PUT', headers, body: JSON.stringify(body) });
      expect(r.status).toBe(400);
      expect(r.body.label).toMatch(/^(bad-request|invalid-handle)$/);
    }
    const self = await call(publicUrl, '/v8/self', { headers });
    expect(self.body.name).toBe('Test User');
  });
});
