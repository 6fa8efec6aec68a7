import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPki } from '../../../src/federator-node/pki.js';
import { tlsMaterial } from '../../../src/federator-node/tls-material.js';

describe('federator: the CA store (remoteCAStore, useSystemCAStore)', () => {
  let dir: string;
  let caOne: string;
  let caTwo: string;
  const trimmed = (file: string) => readFileSync(file, 'utf8').trim();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-ca-store-'));
    const one = await localPki(join(dir, 'one'), 'example.com');
    const two = await localPki(join(dir, 'two'), 'b.example.com');
    [caOne, caTwo] = [one.ca, two.ca];
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every certificate of a PEM bundle file', () => {
    const bundle = join(dir, 'bundle.pem');
    writeFileSync(bundle, `${readFileSync(caOne, 'utf8')}\n${readFileSync(caTwo, 'utf8')}`);
    expect(tlsMaterial({ useSystemCAStore: false, remoteCAStore: bundle }).ca).toEqual([
      trimmed(caOne),
      trimmed(caTwo),
    ]);
  });

  it('reads every file of a directory of hash-named certificates', () => {
    const hashed = join(dir, 'hashed');
    mkdirSync(hashed);
    copyFileSync(caOne, join(hashed, '1a2b3c4d.0'));
    copyFileSync(caTwo, join(hashed, '5e6f7a8b.0'));
    const ca = tlsMaterial({ useSystemCAStore: false, remoteCAStore: hashed }).ca;
    expect(ca.sort()).toEqual([trimmed(caOne), trimmed(caTwo)].sort());
  });

  it("adds the system's CAs when asked, and trusts nothing with neither store", () => {
    const both = tlsMaterial({ useSystemCAStore: true, remoteCAStore: caOne }).ca;
    expect(both).toHaveLength(rootCertificates.length + 1);
    expect(both).toContain(trimmed(caOne));
    expect(both).toEqual(expect.arrayContaining([...rootCertificates]));
    expect(tlsMaterial({ useSystemCAStore: false }).ca).toEqual([]);
  });
});
