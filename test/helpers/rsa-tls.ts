import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]) } as const;

/** A TLS identity of the kind integrations have: an RSA key and a self-signed certificate for it. */
export interface RsaTlsIdentity {
  key: string;
  cert: string;
  /** The key's public half as a team registers it (PEM `PUBLIC KEY`). */
  publicKeyPem: string;
}

export async function rsaTlsIdentity(o: { bits?: number; validDays?: number } = {}): Promise<RsaTlsIdentity> {
  const keys = (await crypto.subtle.generateKey({ ...ALGORITHM, modulusLength: o.bits ?? 2048 }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const now = Date.now();
  const days = o.validDays ?? 1;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=integration.test',
    notBefore: new Date(Math.min(now, now + days * 86_400_000) - 60_000),
    notAfter: new Date(now + days * 86_400_000),
    keys,
    signingAlgorithm: ALGORITHM,
  });
  const pem = (der: ArrayBuffer, label: string) => x509.PemConverter.encode(der, label);
  return {
    key: pem(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY'),
    cert: cert.toString('pem'),
    publicKeyPem: pem(await crypto.subtle.exportKey('spki', keys.publicKey), 'PUBLIC KEY'),
  };
}
