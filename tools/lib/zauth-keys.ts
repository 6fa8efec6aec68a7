import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';

/** A new Ed25519 private JWK for the ZAUTH_KEYS secret. */
export async function newZauthKey(): Promise<Record<string, unknown>> {
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  return { ...(await exportJWK(privateKey)) };
}

/**
 * The local ZAUTH_KEYS value: `ZAUTH_KEYS` from the environment when set, else a key pair kept
 * in the state folder, so tokens and cookies survive restarts of `npm start`.
 */
export async function localZauthKeys(stateDir: string): Promise<string> {
  if (process.env.ZAUTH_KEYS) return process.env.ZAUTH_KEYS;
  const file = join(stateDir, 'zauth-keys.json');
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const text = JSON.stringify([await newZauthKey()]);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text, { mode: 0o600 });
  return text;
}
