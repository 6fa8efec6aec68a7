import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../../src/shared/password-hash.js';

const scrypt = { algorithm: 'scrypt' } as const;
const argon2id = { algorithm: 'argon2id', iterations: 1, memory: 1024, parallelism: 1 } as const;

describe('password hashing', () => {
  it('scrypt by default: PHC string that verifies the right password only', async () => {
    const stored = await hashPassword('correct horse', scrypt);
    expect(stored).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(await verifyPassword('correct horse', stored, scrypt)).toEqual({ ok: true, rehash: false });
    expect(await verifyPassword('correct horsf', stored, scrypt)).toEqual({ ok: false });
  });

  it('argon2id with the configured parameters', async () => {
    const stored = await hashPassword('correct horse', argon2id);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await verifyPassword('correct horse', stored, argon2id)).toEqual({ ok: true, rehash: false });
    expect((await verifyPassword('wrong horse', stored, argon2id)).ok).toBe(false);
  });

  it('asks to migrate scrypt hashes when argon2id is configured', async () => {
    const stored = await hashPassword('correct horse', scrypt);
    expect(await verifyPassword('correct horse', stored, argon2id)).toEqual({ ok: true, rehash: true });
  });

  it('never migrates back, and argon2id hashes still verify under scrypt', async () => {
    const stored = await hashPassword('correct horse', argon2id);
    expect(await verifyPassword('correct horse', stored, scrypt)).toEqual({ ok: true, rehash: false });
  });

  it('leaves legacy passwords shorter than 8 characters as they are', async () => {
    const stored = await hashPassword('short7c', scrypt);
    expect(await verifyPassword('short7c', stored, argon2id)).toEqual({ ok: true, rehash: false });
  });

  it('salts: the same password hashes differently', async () => {
    expect(await hashPassword('correct horse', scrypt)).not.toBe(await hashPassword('correct horse', scrypt));
  });

  it('refuses unparseable stored values', async () => {
    expect(await verifyPassword('x', 'plain-text', scrypt)).toEqual({ ok: false });
  });
});
