// Reads a SAMLResponse (the form field the IdP's page posts) into what the verdict is made of.
// Everything but the parse is left to the judge: a response is only trusted once its assertion's
// signature holds (signature.ts).
import type { Document, Element } from '@xmldom/xmldom';
import { ApiError } from '../../api/errors/api-error.js';
import { sparErrors } from '../../api/errors/spar.js';
import { childNamed, childrenNamed, isNamed, NS, parseXml, textOf } from '../xml.js';

export interface AuthnResponse {
  doc: Document;
  issuer: string;
  status: string | undefined;
  assertion: Element;
  assertionId: string;
  issueInstant: string | undefined;
  nameId: { value: string; format: string | undefined };
  /** The bearer subject confirmation's data, when there is one. */
  bearer: { inResponseTo?: string; recipient?: string; notOnOrAfter?: string } | undefined;
  conditions: { notBefore?: string; notOnOrAfter?: string; audiences: string[] | undefined } | undefined;
  authn: { sessionNotOnOrAfter?: string } | undefined;
}

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

const bad = (message: string) => new ApiError(sparErrors.badResponseSaml, `Bad response: ${message}`);

const attr = (e: Element | undefined, name: string): Record<string, string> => {
  const v = e?.getAttribute(name);
  return v ? { [name.charAt(0).toLowerCase() + name.slice(1)]: v } : {};
};

function decode(form: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(atob(form.replace(/\s+/g, '')), (ch) => ch.charCodeAt(0)),
    );
  } catch (err) {
    throw new ApiError(sparErrors.badResponseEncoding, `Bad response: base64 error: ${(err as Error).message}`);
  }
}

function bearerOf(subject: Element): AuthnResponse['bearer'] {
  const confirmation = childrenNamed(subject, NS.saml, 'SubjectConfirmation').find(
    (s) => s.getAttribute('Method') === BEARER,
  );
  if (confirmation === undefined) return undefined;
  const data = childNamed(confirmation, NS.saml, 'SubjectConfirmationData');
  return { ...attr(data, 'InResponseTo'), ...attr(data, 'Recipient'), ...attr(data, 'NotOnOrAfter') };
}

function conditionsOf(assertion: Element): AuthnResponse['conditions'] {
  const conditions = childNamed(assertion, NS.saml, 'Conditions');
  if (conditions === undefined) return undefined;
  const restrictions = childrenNamed(conditions, NS.saml, 'AudienceRestriction');
  return {
    ...attr(conditions, 'NotBefore'),
    ...attr(conditions, 'NotOnOrAfter'),
    audiences:
      restrictions.length === 0
        ? undefined
        : restrictions.flatMap((r) => childrenNamed(r, NS.saml, 'Audience').map((a) => textOf(a) ?? '')),
  };
}

export function parseAuthnResponse(form: string | undefined): AuthnResponse {
  if (form === undefined || form === '') throw bad('SAMLResponse form field missing from HTTP body');
  let doc: Document;
  try {
    doc = parseXml(decode(form));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(sparErrors.badResponseXml, `Bad response: XML parse error: ${(err as Error).message}`);
  }
  const root = doc.documentElement!;
  if (!isNamed(root, NS.samlp, 'Response')) throw bad('not a samlp:Response');
  const issuer = textOf(childNamed(root, NS.saml, 'Issuer'));
  if (!issuer) throw bad('no Issuer in AuthnResponse');
  const assertions = childrenNamed(root, NS.saml, 'Assertion');
  if (assertions.length === 0) throw bad('no assertions in AuthnResponse');
  if (assertions.length > 1) throw bad('more than one assertion in AuthnResponse');
  const assertion = assertions[0]!;
  const assertionId = assertion.getAttribute('ID');
  if (!assertionId) throw bad('assertion without ID');
  if (textOf(childNamed(assertion, NS.saml, 'Issuer')) !== issuer) throw new ApiError(sparErrors.issuerMismatch);
  const subject = childNamed(assertion, NS.saml, 'Subject');
  const nameIdElement = subject && childNamed(subject, NS.saml, 'NameID');
  const nameId = textOf(nameIdElement);
  if (subject === undefined || !nameId) throw bad('no NameID in the assertion');
  const status = childNamed(root, NS.samlp, 'Status');
  const authn = childNamed(assertion, NS.saml, 'AuthnStatement');
  return {
    doc,
    issuer,
    status: (status && childNamed(status, NS.samlp, 'StatusCode'))?.getAttribute('Value') ?? undefined,
    assertion,
    assertionId,
    issueInstant: assertion.getAttribute('IssueInstant') ?? undefined,
    nameId: { value: nameId, format: nameIdElement?.getAttribute('Format') ?? undefined },
    bearer: bearerOf(subject),
    conditions: conditionsOf(assertion),
    authn: authn === undefined ? undefined : { ...attr(authn, 'SessionNotOnOrAfter') },
  };
}
