import { afterEach, describe, expect, it, vi } from 'vitest';
import { importZauthKeys } from '../../../../src/edge/auth/keys.js';
import { signAccessToken, verifyAccessToken } from '../../../../src/edge/auth/tokens.js';
import { newZauthKey } from '../../../../tools/lib/zauth-keys.js';

const claims = { user: '00000000-0000-4000-8000-000000000001', connection: '42', client: 'abcdef' };
const now = () => Math.floor(Date.now() / 1000);

describe('access tokens verified once per isolate', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('checks the signature of a token only the first time it is seen', async () => {
    const keys = await importZauthKeys(JSON.stringify([await newZauthKey()]), 1);
    const token = await signAccessToken(keys, claims, now() + 900);
    const verify = vi.spyOn(crypto.subtle, 'verify');
    expect(await verifyAccessToken(keys, token)).toEqual(claims);
    expect(await verifyAccessToken(keys, token)).toEqual(claims);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('still checks the expiry of a token it has verified', async () => {
    const keys = await importZauthKeys(JSON.stringify([await newZauthKey()]), 1);
    const token = await signAccessToken(keys, claims, now() + 60);
    expect(await verifyAccessToken(keys, token)).toEqual(claims);
    vi.useFakeTimers({ now: Date.now() + 120_000, toFake: ['Date'] });
    expect(await verifyAccessToken(keys, token)).toBeUndefined();
    expect(await verifyAccessToken(keys, token, { allowExpired: true })).toEqual(claims);
  });

  it('refuses a forged signature beside a verified token', async () => {
    const keys = await importZauthKeys(JSON.stringify([await newZauthKey()]), 1);
    const token = await signAccessToken(keys, claims, now() + 900);
    expect(await verifyAccessToken(keys, token)).toEqual(claims);
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${payload}.${signature!.slice(0, -4)}AAAA`;
    expect(await verifyAccessToken(keys, forged)).toBeUndefined();
  });

  it('does not carry a verification over to another key set', async () => {
    const signer = await importZauthKeys(JSON.stringify([await newZauthKey()]), 1);
    const token = await signAccessToken(signer, claims, now() + 900);
    expect(await verifyAccessToken(signer, token)).toEqual(claims);
    const rotated = await importZauthKeys(JSON.stringify([await newZauthKey()]), 1);
    expect(await verifyAccessToken(rotated, token)).toBeUndefined();
  });
});
