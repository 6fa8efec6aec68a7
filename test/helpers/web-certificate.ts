import 'reflect-metadata'; // @peculiar/x509's dependency injection needs it before first use
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface WebCertificate {
  certPath: string;
  keyPath: string;
  /** The certificate, for a client to trust (it is its own issuer). */
  pem: string;
  /** base64 SHA-256 of its public key: what Chromium's --ignore-certificate-errors-spki-list takes. */
  spkiHash: string;
}

/** A self-signed server certificate for these host names (and 127.0.0.1), written into `dir`. */
export async function webCertificate(dir: string, names: readonly string[]): Promise<WebCertificate> {
  const keys = (await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${names[0]}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 7 * 24 * 3600 * 1000),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...names.map((value) => ({ type: 'dns' as const, value })),
        { type: 'ip', value: '127.0.0.1' },
      ]),
    ],
  });
  const pem = cert.toString('pem');
  const key = x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  const certPath = join(dir, 'web.pem');
  const keyPath = join(dir, 'web-key.pem');
  writeFileSync(certPath, `${pem}\n`);
  writeFileSync(keyPath, key, { mode: 0o600 });
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', keys.publicKey));
  return { certPath, keyPath, pem, spkiHash: createHash('sha256').update(spki).digest('base64') };
}
