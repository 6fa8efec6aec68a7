import { createPrivateKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Config } from '../../src/shared/config/index.js';

/** Each signature scheme's key: Node's key type and curve. */
const SCHEMES = {
  ed25519: { type: 'ed25519', curve: 'Ed25519' },
  ecdsa_secp256r1_sha256: { type: 'ec', curve: 'P-256' },
  ecdsa_secp384r1_sha384: { type: 'ec', curve: 'P-384' },
  ecdsa_secp521r1_sha512: { type: 'ec', curve: 'P-521' },
} as const;

type Scheme = keyof typeof SCHEMES;

function newKeyPem(scheme: Scheme): string {
  const { type, curve } = SCHEMES[scheme];
  const pair = type === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: curve });
  return pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** A PEM private key as the private JWK the worker takes; refused when it is not the scheme's kind of key. */
function jwkOf(scheme: Scheme, pem: string, path: string): JsonWebKey {
  let jwk: JsonWebKey;
  try {
    jwk = createPrivateKey(pem).export({ format: 'jwk' });
  } catch {
    throw new Error(`${path}: not a PEM private key (MLS removal key for ${scheme})`);
  }
  if (jwk.crv !== SCHEMES[scheme].curve) throw new Error(`${path}: a ${jwk.crv ?? jwk.kty} key, not ${scheme}`);
  return jwk;
}

/**
 * The MLS_REMOVAL_KEYS value (scheme → private JWK) from galley's `mlsPrivateKeyPaths`, when brig
 * enables MLS; undefined otherwise. A relative path is in the state folder, where `generate`
 * creates a missing key (so `npm start` has MLS out of the box); any other missing or unreadable
 * key is refused, as is a key of another kind.
 */
export function mlsRemovalKeys(config: Config, stateDir: string, generate: boolean): string | undefined {
  const paths = config.galley.settings.mlsPrivateKeyPaths?.removal;
  if (!config.brig.optSettings.setEnableMLS || paths === undefined) return undefined;
  const keys: Record<string, JsonWebKey> = {};
  for (const scheme of Object.keys(SCHEMES) as Scheme[]) {
    const configured = paths[scheme];
    const path = isAbsolute(configured) ? configured : resolve(stateDir, configured);
    if (!existsSync(path)) {
      if (!generate || isAbsolute(configured)) throw new Error(`${path}: MLS removal key for ${scheme} is missing`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, newKeyPem(scheme), { mode: 0o600 });
    }
    let pem: string;
    try {
      pem = readFileSync(path, 'utf8');
    } catch (err) {
      throw new Error(`${path}: MLS removal key for ${scheme} is unreadable (${(err as Error).message})`);
    }
    keys[scheme] = jwkOf(scheme, pem, path);
  }
  return JSON.stringify(keys);
}
