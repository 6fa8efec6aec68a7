import { createPublicKey, type KeyObject, sign } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  Certificate,
  Extension,
  Extensions,
  GeneralName,
  id_ce_subjectAltName,
  Name,
  SubjectAlternativeName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';

const ED25519 = '1.3.101.112';

/**
 * A self-signed Ed25519 certificate (DER) for `key`, with these SAN URIs: what an end-to-end
 * identity (x509) credential carries, for tests. Built with the same ASN.1 library the backend
 * reads certificates with, signed by Node.
 */
export function ed25519Certificate(key: KeyObject, uris: readonly string[]): Uint8Array {
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  const san = new SubjectAlternativeName(uris.map((u) => new GeneralName({ uniformResourceIdentifier: u })));
  const algorithm = new AlgorithmIdentifier({ algorithm: ED25519 });
  const now = Date.now();
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: new Uint8Array([1]).buffer,
    signature: algorithm,
    issuer: new Name(),
    subject: new Name(),
    validity: new Validity({ notBefore: new Date(now - 3600_000), notAfter: new Date(now + 86_400_000) }),
    subjectPublicKeyInfo: AsnConvert.parse(spki, SubjectPublicKeyInfo),
    extensions: new Extensions([
      new Extension({
        extnID: id_ce_subjectAltName,
        critical: false,
        extnValue: new OctetString(AsnConvert.serialize(san)),
      }),
    ]),
  });
  const signature = sign(null, Buffer.from(AsnConvert.serialize(tbs)), key);
  const cert = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: algorithm,
    signatureValue: new Uint8Array(signature).buffer,
  });
  return new Uint8Array(AsnConvert.serialize(cert));
}
