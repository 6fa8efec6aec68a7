import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileProblems, fromConfigFile } from '../../../../src/edge/api/config-files.js';
import { loadConfig, type Config } from '../../../../src/shared/config/index.js';
import { configFiles } from '../../../../tools/lib/config-files.js';
import { editedTexts, type Edit } from '../../../helpers/config-files.js';

function config(edits: Edit[] = []): Config {
  const r = loadConfig(editedTexts(edits));
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.config;
}

describe('the files the configuration names (SVC_FILES)', () => {
  it('makes missing relative ones in the state folder when starting locally, and keeps them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'files-'));
    const files = JSON.parse(configFiles(config(), dir, true)) as Record<string, string>;
    expect(Object.keys(files).sort()).toEqual([
      'dpop/sig-key-bundle.pem',
      'oauth/ed25519-public.jwk',
      'oauth/ed25519.jwk',
      'proxy/secrets.config',
      'turn/secret.txt',
      'turn/servers-v2.txt',
      'turn/servers.txt',
    ]);
    // nginz's public key is the public half of brig's OAuth key pair
    const { d, ...pub } = JSON.parse(files['oauth/ed25519.jwk']!) as Record<string, string>;
    expect(d).toBeTypeOf('string');
    expect(JSON.parse(files['oauth/ed25519-public.jwk']!)).toEqual(pub);
    expect(files['turn/servers-v2.txt']).toContain('turn:127.0.0.1:3478?transport=tcp');
    expect(files['proxy/secrets.config']).toMatch(/^secrets \{\n {2}giphy = "local-[0-9a-f]{16}"\n/);
    expect(readFileSync(join(dir, 'turn/secret.txt'), 'utf8')).toBe(files['turn/secret.txt']);
    expect(JSON.parse(configFiles(config(), dir, true))).toEqual(files);
  });

  it('refuses a missing file when not generating, and a missing absolute path always', () => {
    const dir = mkdtempSync(join(tmpdir(), 'files-'));
    expect(() => configFiles(config(), dir, false)).toThrow(/missing \(named by brig.yaml turn\.servers\)/);
    const absolute = join(dir, 'nowhere.txt');
    expect(() => configFiles(config([['brig.yaml', ['turn', 'secret'], absolute]]), dir, true)).toThrow(absolute);
    expect(existsSync(absolute)).toBe(false);
  });

  it('hands a P-256 signing key to the worker as a JWK', () => {
    const dir = mkdtempSync(join(tmpdir(), 'files-'));
    const c = config([['brig.yaml', ['secrets', 'dpopSigKeyBundle'], 'dpop.pem']]);
    const files = JSON.parse(configFiles(c, dir, true)) as Record<string, string>;
    expect(JSON.parse(files['dpop.pem']!)).toMatchObject({ kty: 'EC', crv: 'P-256' });
    writeFileSync(join(dir, 'dpop.pem'), 'not a key');
    expect(() => configFiles(c, dir, true)).toThrow(/not a PEM private key/);
  });

  it("refuses a proxy secrets file that lacks a key, or is not the proxy's syntax", () => {
    const dir = mkdtempSync(join(tmpdir(), 'files-'));
    writeFileSync(join(dir, 'secrets.config'), 'secrets { giphy = "g" }');
    const c = config([['proxy.yaml', ['secretsConfig'], 'secrets.config']]);
    expect(() => configFiles(c, dir, true)).toThrow(
      /secrets\.config \(proxy\.yaml secretsConfig\): secrets\.youtube is missing/,
    );
  });

  it('has the worker derive what it needs of a file once per text, not per request', () => {
    let calls = 0;
    const derive = (text: string) => ({ n: ++calls, text });
    const env = { SVC_FILES: JSON.stringify({ 'a.txt': 'one' }) };
    const first = fromConfigFile(env, 'a.txt', derive);
    expect(fromConfigFile(env, 'a.txt', derive)).toBe(first);
    expect(calls).toBe(1);
    // a new deployment's file is derived again
    expect(fromConfigFile({ SVC_FILES: JSON.stringify({ 'a.txt': 'two' }) }, 'a.txt', derive)).toEqual({
      n: 2,
      text: 'two',
    });
    expect(() => fromConfigFile(env, 'b.txt', derive)).toThrow('SVC_FILES holds no b.txt');
  });

  it('has the runtime refuse to serve while one is missing', () => {
    const withOAuthOff = config([
      ['brig.yaml', ['optSettings', 'setOAuthEnabled'], false],
      ['brig.yaml', ['secrets'], {}],
    ]);
    expect(fileProblems({ SVC_FILES: JSON.stringify({ 'turn/servers.txt': '' }) }, withOAuthOff)).toEqual([
      { file: 'brig.yaml', path: 'turn.serversV2', message: expect.stringContaining('turn/servers-v2.txt') },
      { file: 'brig.yaml', path: 'turn.secret', message: expect.stringContaining('turn/secret.txt') },
      { file: 'proxy.yaml', path: 'secretsConfig', message: expect.stringContaining('proxy/secrets.config') },
    ]);
  });
});
