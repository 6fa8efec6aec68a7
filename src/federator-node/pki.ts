// A local certificate authority for backends that federate on one machine: a CA, and for each
// federation domain one certificate (SAN = the domain, for TLS server and client use) signed by
// it. Made once into a folder both backends read; production uses certificates from its own PKI.
import 'reflect-metadata'; // @peculiar/x509's dependency injection needs it before first use
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const YEAR_MS = 365 * 24 * 3600 * 1000;

export interface DomainFiles {
  /** The domain's certificate followed by the CA's (the full chain). */
  certificate: string;
  privateKey: string;
  /** The CA certificate remote backends trust. */
  ca: string;
}

const pemKey = async (key: CryptoKey) =>
  x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');

async function newKeys(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function makeCa(dir: string): Promise<void> {
  const keys = await newKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=svc local federation CA',
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 10 * YEAR_MS),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  writeFileSync(join(dir, 'ca-key.pem'), await pemKey(keys.privateKey), { mode: 0o600 });
  writeFileSync(join(dir, 'ca.pem'), cert.toString('pem'));
}

async function makeDomainCertificate(dir: string, domain: string): Promise<void> {
  const ca = new x509.X509Certificate(readFileSync(join(dir, 'ca.pem'), 'utf8'));
  const caKey = await crypto.subtle.importKey(
    'pkcs8',
    x509.PemConverter.decodeFirst(readFileSync(join(dir, 'ca-key.pem'), 'utf8')),
    ALGORITHM,
    false,
    ['sign'],
  );
  const keys = await newKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${domain}`,
    issuer: ca.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + YEAR_MS),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: domain }]),
      await x509.AuthorityKeyIdentifierExtension.create(ca),
    ],
  });
  writeFileSync(join(dir, `${domain}-key.pem`), await pemKey(keys.privateKey), { mode: 0o600 });
  writeFileSync(join(dir, `${domain}.pem`), `${cert.toString('pem')}\n${ca.toString('pem')}\n`);
}

/** Holds `dir/.lock` while `work` runs: two backends starting together make one CA, not two. */
async function locked<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const lock = join(dir, '.lock');
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 200) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The files of `domain` in the local PKI under `dir`, made (with the CA) if missing. */
export async function localPki(dir: string, domain: string): Promise<DomainFiles> {
  mkdirSync(dir, { recursive: true });
  const files = {
    certificate: join(dir, `${domain}.pem`),
    privateKey: join(dir, `${domain}-key.pem`),
    ca: join(dir, 'ca.pem'),
  };
  if (existsSync(files.certificate) && existsSync(files.privateKey)) return files;
  return locked(dir, async () => {
    if (!existsSync(files.ca)) await makeCa(dir);
    if (!existsSync(files.certificate) || !existsSync(files.privateKey)) await makeDomainCertificate(dir, domain);
    return files;
  });
}
