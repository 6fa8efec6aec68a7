import { X509Certificate } from 'xmldsigjs';
import { fromBase64 } from '../../../shared/base64.js';
import { NS } from '../xml.js';

/** An IdP's certificate (base64 DER), or undefined when it is not one. */
export function certificateOf(base64: string): X509Certificate | undefined {
  const der = fromBase64(base64);
  if (der === undefined) return undefined;
  try {
    return new X509Certificate(der);
  } catch {
    return undefined;
  }
}

/** The certificate as wire shows it in an IdP's `certAuthnResponse`: a `ds:KeyInfo` element. */
export const keyInfoXml = (base64: string) =>
  `<KeyInfo xmlns="${NS.ds}"><X509Data><X509Certificate>${base64}</X509Certificate></X509Data></KeyInfo>`;
