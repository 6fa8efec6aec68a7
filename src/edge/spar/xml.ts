// XML for spar: one strict parser (no DTDs, fatal on any error) and the namespaces SAML uses.
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';

export const NS = {
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

/** Parses XML, refusing anything malformed and any document type declaration (entity tricks). */
export function parseXml(text: string): Document {
  if (/<!DOCTYPE/i.test(text)) throw new Error('document type declarations are not accepted');
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(message);
    },
  }).parseFromString(text, 'application/xml');
  if (doc.documentElement === null) throw new Error('no root element');
  return doc;
}

/** The element children of `parent` with this namespace and local name. */
export function childrenNamed(parent: Element, ns: string, name: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n !== null; n = n.nextSibling)
    if (n.nodeType === n.ELEMENT_NODE && (n as Element).namespaceURI === ns && (n as Element).localName === name)
      out.push(n as Element);
  return out;
}

export const childNamed = (parent: Element, ns: string, name: string): Element | undefined =>
  childrenNamed(parent, ns, name)[0];

/** The element's text, trimmed. */
export const textOf = (e: Element | undefined): string | undefined => e?.textContent?.trim() ?? undefined;

export const isNamed = (e: Element, ns: string, name: string) => e.namespaceURI === ns && e.localName === name;

export const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
