import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate, id_ce_subjectAltName, SubjectAlternativeName } from '@peculiar/asn1-x509';
import { fromBase64url } from '../base64.js';
import { normalizeDomain } from '../domain.js';
import { uuidFromBytes, uuidToBytes } from '../uuid.js';
import { base64url } from '../keys.js';

/** A client named by an end-to-end identity certificate, and the certificate's public key. */
export interface CertifiedClient {
  user: string;
  client: string;
  domain: string;
  /** The subject public key (Ed25519: 32 bytes; ECDSA: the point as the certificate encodes it). */
  publicKey: Uint8Array;
}

const CLIENT_URI = /^wireapp:\/\/([A-Za-z0-9_-]{22})(?:%21|!)([0-9a-f]{1,16})@(.+)$/i;

/**
 * The client an X.509 credential's leaf certificate names, as wire-server reads it: the first
 * certificate's SAN URIs, the first of the form `wireapp://<base64url user id>%21<client
 * hex>@<domain>` (the user id's 16 bytes, unpadded). A certificate that does not parse, or names no
 * client, gives the reason. The certificate's signature is not checked here (nor by wire-server).
 */
export function certifiedClient(certificates: readonly Uint8Array[]): CertifiedClient | string {
  const leaf = certificates[0];
  if (leaf === undefined) return 'Invalid x509 certificate chain';
  let cert: Certificate;
  try {
    cert = AsnConvert.parse(leaf, Certificate);
  } catch {
    return 'Invalid x509 certificate';
  }
  const ext = cert.tbsCertificate.extensions?.find((e) => e.extnID === id_ce_subjectAltName);
  if (ext === undefined) return 'No SAN URIs found';
  let names: SubjectAlternativeName;
  try {
    names = AsnConvert.parse(ext.extnValue, SubjectAlternativeName);
  } catch {
    return 'No SAN URIs found';
  }
  const uris = names.flatMap((n) => (n.uniformResourceIdentifier === undefined ? [] : [n.uniformResourceIdentifier]));
  if (uris.length === 0) return 'No SAN URIs found';
  for (const uri of uris) {
    const m = CLIENT_URI.exec(uri);
    const bytes = m === null ? undefined : fromBase64url(m[1]!);
    const domain = m === null ? undefined : normalizeDomain(m[3]!);
    if (bytes?.length !== 16 || domain === undefined) continue;
    return {
      user: uuidFromBytes(bytes),
      client: BigInt(`0x${m![2]}`).toString(16),
      domain,
      publicKey: new Uint8Array(cert.tbsCertificate.subjectPublicKeyInfo.subjectPublicKey),
    };
  }
  return 'No wireapp label found';
}

/**
 * A client's end-to-end identity URI, `wireapp://<user id, base64url>!<client hex>@<domain>`: the
 * `sub` of its DPoP proofs and access tokens (certificates write the `!` as `%21`).
 */
export function clientIdUri(user: string, client: string, domain: string): string {
  const bytes = uuidToBytes(user);
  if (bytes === undefined) throw new Error(`not a user id: ${user}`);
  return `wireapp://${base64url(bytes)}!${BigInt(`0x${client}`).toString(16)}@${domain}`;
}
