import { describe, expect, it } from 'vitest';
import { uuidToBytes, uuidV5 } from '../../../src/shared/uuid.js';

describe('name-based UUIDs (version 5)', () => {
  it('matches RFC 4122 as other implementations compute it', async () => {
    // Python's documentation: uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org')
    const dns = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
    expect(await uuidV5(dns, new TextEncoder().encode('python.org'))).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
    // Python: UUID(bytes=sha1(ns.bytes + uid.bytes).digest()[:16], version=5), a name of raw UUID bytes
    const name = uuidToBytes('00000000-0000-4000-8000-000000000001')!;
    expect(await uuidV5('3eac2a2c-3850-510b-bd08-8a98e80dd4d9', name)).toBe('535e6b61-556e-5a9a-a23e-ad9a2315183c');
  });

  it('refuses a namespace that is no UUID', async () => {
    await expect(uuidV5('dns', new Uint8Array())).rejects.toThrow(/namespace/);
  });
});
