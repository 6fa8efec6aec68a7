import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { namedFiles, type Config, type NamedFile, type NamedFileKind } from '../../src/shared/config/index.js';
import { PROXY_SECRETS, proxySecrets } from '../../src/shared/config/proxy-secrets.js';

/**
 * What `npm start` writes for a missing file of each kind: local TURN on 127.0.0.1, fresh keys; a
 * public key is the public half of the last key pair read before it.
 */
const LOCAL_DEFAULTS: Record<NamedFileKind, (lastPair: string | undefined) => string> = {
  'turn-servers': () => 'turn:127.0.0.1:3478\nturn:127.0.0.1:3478?transport=tcp\n',
  secret: () => `${randomBytes(32).toString('base64url')}\n`,
  'p256-key': () =>
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  'ed25519-jwk': () => JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })),
  'ed25519-public-jwk': (lastPair) => {
    if (lastPair === undefined) throw new Error('no key pair to take the public key of');
    const { d: _private, ...pub } = JSON.parse(lastPair) as Record<string, string>;
    return JSON.stringify(pub);
  },
  // Locally the third parties refuse these; an operator writes the real keys.
  'proxy-secrets': () =>
    `secrets {\n${PROXY_SECRETS.map((n) => `  ${n} = "local-${randomBytes(8).toString('hex')}"`).join('\n')}\n}\n`,
};

/** The file's text as the worker takes it: a P-256 key (PKCS#8 or SEC1 PEM) becomes its private JWK; proxy secrets are checked. */
function workerText(file: NamedFile, text: string, path: string): string {
  if (file.kind === 'proxy-secrets') {
    try {
      proxySecrets(text);
    } catch (err) {
      throw new Error(`${path} (${file.setting}): ${(err as Error).message}`);
    }
  }
  if (file.kind !== 'p256-key') return text;
  let jwk: ReturnType<ReturnType<typeof createPrivateKey>['export']>;
  try {
    jwk = createPrivateKey(text).export({ format: 'jwk' });
  } catch {
    throw new Error(`${path} (${file.setting}): not a PEM private key`);
  }
  if ((jwk as { crv?: string }).crv !== 'P-256') throw new Error(`${path} (${file.setting}): not an ECDSA P-256 key`);
  return JSON.stringify(jwk);
}

/**
 * The SVC_FILES value: every file the configuration names (TURN lists, secrets, signing keys),
 * keyed by its configured path. A relative path is in `baseDir` (the state folder locally), where
 * `generate` makes a missing file; a missing absolute path, or any when not generating, is refused.
 */
export function configFiles(config: Config, baseDir: string, generate: boolean): string {
  const files: Record<string, string> = {};
  let lastPair: string | undefined;
  for (const file of namedFiles(config)) {
    const path = isAbsolute(file.path) ? file.path : resolve(baseDir, file.path);
    if (!existsSync(path)) {
      if (!generate || isAbsolute(file.path)) throw new Error(`${path}: missing (named by ${file.setting})`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, LOCAL_DEFAULTS[file.kind](lastPair), { mode: 0o600 });
    }
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new Error(`${path} (${file.setting}): unreadable (${(err as Error).message})`);
    }
    files[file.path] = workerText(file, text, path);
    if (file.kind === 'ed25519-jwk') lastPair = text;
  }
  return JSON.stringify(files);
}
