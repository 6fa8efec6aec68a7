import { argon2idAsync } from '@noble/hashes/argon2.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { fromBase64, toBase64 } from './base64.js';

/** `setPasswordHashingOptions`: the algorithm new hashes use, and argon2id's cost parameters. */
export interface HashingOptions {
  algorithm: 'scrypt' | 'argon2id';
  iterations?: number | undefined;
  /** KiB */
  memory?: number | undefined;
  parallelism?: number | undefined;
}

const SCRYPT = { logN: 14, r: 8, p: 1 };
// OWASP's argon2id baseline, used where the configuration names no parameters.
const ARGON2ID = { t: 2, m: 19456, p: 1 };
const KEY_LENGTH = 32;
/** Passwords shorter than this predate the 8-character rule; their hashes are never migrated. */
const MIGRATABLE_LENGTH = 8;

const utf8 = new TextEncoder();

async function derive(alg: 'scrypt' | 'argon2id', password: string, salt: Uint8Array, params: Record<string, number>) {
  return alg === 'scrypt'
    ? scryptAsync(utf8.encode(password), salt, { N: 2 ** params.ln!, r: params.r!, p: params.p!, dkLen: KEY_LENGTH })
    : argon2idAsync(utf8.encode(password), salt, { t: params.t!, m: params.m!, p: params.p!, dkLen: KEY_LENGTH });
}

/** A PHC-format string: `$scrypt$ln=14,r=8,p=1$<salt>$<hash>` or `$argon2id$v=19$m=..,t=..,p=..$<salt>$<hash>`. */
export async function hashPassword(password: string, opts: HashingOptions): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  if (opts.algorithm === 'scrypt') {
    const params = { ln: SCRYPT.logN, r: SCRYPT.r, p: SCRYPT.p };
    const hash = await derive('scrypt', password, salt, params);
    return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${toBase64(salt, { pad: false })}$${toBase64(hash, { pad: false })}`;
  }
  const params = { m: opts.memory ?? ARGON2ID.m, t: opts.iterations ?? ARGON2ID.t, p: opts.parallelism ?? ARGON2ID.p };
  const hash = await derive('argon2id', password, salt, params);
  return `$argon2id$v=19$m=${params.m},t=${params.t},p=${params.p}$${toBase64(salt, { pad: false })}$${toBase64(hash, { pad: false })}`;
}

interface Parsed {
  alg: 'scrypt' | 'argon2id';
  params: Record<string, number>;
  salt: Uint8Array;
  hash: Uint8Array;
}

function parse(stored: string): Parsed | undefined {
  const parts = stored.split('$');
  const [, alg] = parts;
  const [paramText, saltText, hashText] = alg === 'argon2id' ? parts.slice(3) : parts.slice(2);
  if ((alg !== 'scrypt' && alg !== 'argon2id') || hashText === undefined) return undefined;
  const params = Object.fromEntries(
    paramText!
      .split(',')
      .map((kv) => kv.split('='))
      .map(([k, v]) => [k, Number(v)]),
  );
  const salt = fromBase64(saltText!);
  const hash = fromBase64(hashText);
  return salt && hash ? { alg, params, salt, hash } : undefined;
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export type Verification = { ok: false } | { ok: true; rehash: boolean };

/**
 * Checks a password against its stored hash, whatever algorithm made it. `rehash` asks the caller
 * to store a new hash: scrypt hashes move to argon2id when argon2id is configured, never back, and
 * passwords shorter than 8 characters stay as they are.
 */
export async function verifyPassword(password: string, stored: string, opts: HashingOptions): Promise<Verification> {
  const p = parse(stored);
  if (p === undefined) return { ok: false };
  const hash = await derive(p.alg, password, p.salt, p.params);
  if (!constantTimeEqual(hash, p.hash)) return { ok: false };
  const rehash = p.alg === 'scrypt' && opts.algorithm === 'argon2id' && password.length >= MIGRATABLE_LENGTH;
  return { ok: true, rehash };
}
