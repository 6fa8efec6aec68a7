// XML-DSig for SAML assertions, with xmldsigjs on WebCrypto. An assertion counts as signed only
// when its own enveloped signature, with one reference naming the assertion's ID (held by no other
// element of the document), verifies with a certificate from the IdP's metadata: what the
// signature covers is then exactly what is read.
import { DOMParser, type Document, type Element, XMLSerializer } from '@xmldom/xmldom';
import { setNodeDependencies } from 'xml-core';
import { Application, SignedXml } from 'xmldsigjs';
import { certificateOf } from '../idp/certificates.js';
import { childNamed, NS } from '../xml.js';

Application.setEngine('WebCrypto', crypto);
// workerd has `self`, so xml-core selects with its own code, not the `xpath` package.
setNodeDependencies({ DOMParser, XMLSerializer });

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const ALLOWED_TRANSFORMS = new Set([
  'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
  'http://www.w3.org/2001/10/xml-exc-c14n#',
  'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
]);
const RSA_KEY = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };

/** IdP certificates' keys, imported once per isolate (bounded: IdPs are few, metadata changes rarely). */
const keys = new Map<string, Promise<CryptoKey | undefined>>();
const MAX_KEYS = 1000;

function keyOf(cert: string): Promise<CryptoKey | undefined> {
  let key = keys.get(cert);
  if (key === undefined) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key =
      certificateOf(cert)
        ?.exportKey(RSA_KEY)
        .catch(() => undefined) ?? Promise.resolve(undefined);
    keys.set(cert, key);
  }
  return key;
}

/** How many elements of the document carry this ID. */
function elementsWithId(doc: Document, id: string): number {
  let n = 0;
  const all = doc.getElementsByTagName('*');
  for (let i = 0; i < all.length; i++) if (all.item(i)?.getAttribute('ID') === id) n++;
  return n;
}

/** Why the assertion's signature does not hold, or undefined when it does. */
export async function assertionSignatureProblem(
  doc: Document,
  assertion: Element,
  certs: readonly string[],
): Promise<string | undefined> {
  const id = assertion.getAttribute('ID');
  if (!id) return 'assertion without ID';
  if (elementsWithId(doc, id) !== 1) return 'the assertion ID is not unique in the response';
  const element = childNamed(assertion, NS.ds, 'Signature');
  if (element === undefined) return 'the assertion is not signed';
  let signed: SignedXml;
  try {
    signed = new SignedXml(doc as never);
    signed.LoadXml(element as never);
  } catch (err) {
    return `unreadable signature: ${(err as Error).message}`;
  }
  const info = signed.XmlSignature.SignedInfo;
  if (info.SignatureMethod.Algorithm !== RSA_SHA256) return 'only rsa-sha256 signatures are accepted';
  const ref = info.References.Count === 1 ? info.References.Item(0) : null;
  if (ref?.Uri !== `#${id}`) return 'the signature does not cover the assertion';
  for (let i = 0; i < ref.Transforms.Count; i++)
    if (!ALLOWED_TRANSFORMS.has(ref.Transforms.Item(i)?.Algorithm ?? '')) return 'unexpected signature transform';
  for (const cert of certs) {
    const key = await keyOf(cert);
    if (key === undefined) continue;
    try {
      if (await signed.Verify(key)) return undefined;
    } catch {
      // a digest that does not match: tampered content
    }
  }
  return 'the signature does not verify with the IdP’s certificates';
}
