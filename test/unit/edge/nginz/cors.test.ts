import { describe, expect, it } from 'vitest';
import { corsMatcher } from '../../../../src/edge/nginz/cors.js';
import { loadConfig } from '../../../../src/shared/config/index.js';
import { editedTexts } from '../../../helpers/config-files.js';

function matcher(edits: Parameters<typeof editedTexts>[0] = []) {
  const r = loadConfig(editedTexts(edits));
  if (!r.ok) throw new Error('config');
  return corsMatcher(r.config.nginz.nginx_conf);
}

describe('CORS origins', () => {
  const allowed = matcher([
    ['nginz.yaml', ['nginx_conf', 'additional_external_env_domains'], ['red.example.org']],
    ['nginz.yaml', ['nginx_conf', 'randomport_allowlisted_origins'], ['localhost']],
  ]);
  it.each([
    ['https://webapp.example.com', true],
    ['https://teams.example.com', true],
    ['https://account.red.example.org', true],
    ['http://localhost:3000', true],
    ['https://localhost', true],
    ['https://example.com', false],
    ['http://webapp.example.com', false],
    ['https://evil.webapp.example.com', false],
    ['https://webapp.example.com.evil.org', false],
    ['https://webapp.example.org', false],
    ['http://localhost.evil.org', false],
  ])('%s → %s', (origin, ok) => expect(allowed(origin)).toBe(ok));
});
