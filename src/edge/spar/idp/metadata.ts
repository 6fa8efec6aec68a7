// What spar takes from an IdP's SAML metadata: its issuer (entityID), where AuthnRequests are
// posted (the HTTP-POST SingleSignOnService) and the certificates its responses are signed with.
import type { Element } from '@xmldom/xmldom';
import { ApiError } from '../../api/errors/api-error.js';
import { sparErrors } from '../../api/errors/spar.js';
import { childNamed, childrenNamed, isNamed, NS, parseXml, textOf } from '../xml.js';
import { certificateOf } from './certificates.js';
import { isUrl } from '../../../shared/url.js';

const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

export interface IdpMetadata {
  issuer: string;
  requestUri: string;
  /** Signing certificates, base64 DER. */
  certs: string[];
}

const invalid = (why: string) => new ApiError(sparErrors.invalidMetadata, `Invalid IdP metadata: ${why}`);

function entityOf(root: Element): Element {
  if (isNamed(root, NS.md, 'EntityDescriptor')) return root;
  if (isNamed(root, NS.md, 'EntitiesDescriptor')) {
    const entities = childrenNamed(root, NS.md, 'EntityDescriptor');
    if (entities.length === 1) return entities[0]!;
    throw invalid('EntitiesDescriptor must hold exactly one EntityDescriptor');
  }
  throw invalid('the root must be md:EntityDescriptor');
}

/** The base64 certificates of the descriptor's signing keys (`use` other than encryption). */
function signingCertificates(descriptor: Element): string[] {
  return childrenNamed(descriptor, NS.md, 'KeyDescriptor')
    .filter((k) => k.getAttribute('use') !== 'encryption')
    .flatMap((k) => {
      const info = childNamed(k, NS.ds, 'KeyInfo');
      const data = info && childNamed(info, NS.ds, 'X509Data');
      return data
        ? childrenNamed(data, NS.ds, 'X509Certificate').map((c) => (textOf(c) ?? '').replace(/\s+/g, ''))
        : [];
    });
}

/** Reads IdP metadata; 400 `invalid-metadata` when it is not usable. */
export function parseIdpMetadata(xml: string): IdpMetadata {
  let root: Element;
  try {
    root = parseXml(xml).documentElement!;
  } catch (err) {
    throw invalid((err as Error).message);
  }
  const entity = entityOf(root);
  const issuer = entity.getAttribute('entityID');
  if (!issuer) throw invalid('no entityID');
  const descriptor = childNamed(entity, NS.md, 'IDPSSODescriptor');
  if (descriptor === undefined) throw invalid('no IDPSSODescriptor');
  const sso = childrenNamed(descriptor, NS.md, 'SingleSignOnService').find(
    (s) => s.getAttribute('Binding')?.toLowerCase() === POST_BINDING.toLowerCase(),
  );
  const requestUri = sso?.getAttribute('Location');
  if (!requestUri || !isUrl(requestUri)) throw invalid('no SingleSignOnService with the HTTP-POST binding');
  const certs = signingCertificates(descriptor);
  if (certs.length === 0) throw invalid('no signing certificate');
  for (const cert of certs)
    if (certificateOf(cert) === undefined) throw invalid('a signing certificate is not an X.509 certificate');
  return { issuer, requestUri, certs };
}
