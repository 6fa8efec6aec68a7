/** Edited configurations for test backends (the helpers live in tools/, the benchmarks use them too). */
import { objectStoreEndpoint, type Edit } from '../../tools/lib/config-edit.js';

export { DELETE, defaultTexts, editedTexts, type Edit } from '../../tools/lib/config-edit.js';

/**
 * Passwords hashed as wire-server's own integration configuration hashes them (brig.integration.yaml):
 * argon2id at its cheapest, about 3 ms a hash against scrypt's 300 ms. Every test user registers,
 * logs in and adds a client with a password; a file that is about hashing configures its own.
 */
const CHEAP_HASHING = { algorithm: 'argon2id', iterations: 1, memory: 128, parallelism: 1 };

/** What every test backend changes in its configuration before a file's own edits. */
export const testProfile = (objectStore: string): Edit[] => [
  objectStoreEndpoint(objectStore),
  ['brig.yaml', ['optSettings', 'setPasswordHashingOptions'], CHEAP_HASHING],
  ['galley.yaml', ['settings', 'passwordHashingOptions'], CHEAP_HASHING],
];
