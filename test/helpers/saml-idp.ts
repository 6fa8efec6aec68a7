// A SAML identity provider for the tests: samlify (a SAML 2.0 library for Node) with a signing
// certificate made at test time. It publishes metadata and signs the assertions of the responses
// it is asked for; the tests choose what the response says (to try wrong audiences, old times…).
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as saml from 'samlify';

saml.setSchemaValidator({ validate: async () => 'not validated: the tests write the XML' });

const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const ALGORITHM = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

interface ResponseParts {
  /** The AuthnRequest's ID the response answers (omitted: an IdP-initiated response). */
  inResponseTo?: string | undefined;
  /** Where the IdP posts (`Recipient`, `Destination`): the SP's finalize-login URL. */
  recipient: string;
  /** The SP's entity id, as the audience. */
  audience: string;
  nameId: string;
  nameIdFormat?: string;
  /** The assertion's validity, around now by default. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  issuer?: string;
}

export interface TestIdp {
  entityId: string;
  metadata: string;
  /** A signed SAMLResponse, base64 (the form field the browser posts). */
  respond(parts: ResponseParts): Promise<string>;
}

async function signingIdentity(): Promise<{ certificate: string; privateKey: string }> {
  const keys = (await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=test-idp',
    notBefore: new Date(Date.now() - 3600_000),
    notAfter: new Date(Date.now() + 24 * 3600_000),
    keys,
    signingAlgorithm: ALGORITHM,
  });
  const privateKey = x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { certificate: cert.toString('pem'), privateKey };
}

const iso = (d: Date) => d.toISOString();

function responseXml(idp: string, p: ResponseParts): { id: string; context: string } {
  const now = new Date();
  const id = `_${randomUUID()}`;
  const inResponseTo = p.inResponseTo === undefined ? '' : ` InResponseTo="${p.inResponseTo}"`;
  const notBefore = iso(p.notBefore ?? new Date(now.getTime() - 60_000));
  const notOnOrAfter = iso(p.notOnOrAfter ?? new Date(now.getTime() + 300_000));
  const issuer = p.issuer ?? idp;
  const format = p.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
  const context =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(now)}" Destination="${p.recipient}"${inResponseTo}>` +
    `<saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="_${randomUUID()}" Version="2.0" IssueInstant="${iso(now)}"><saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${format}">${p.nameId}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${p.recipient}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${p.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    '</saml:Assertion></samlp:Response>';
  return { id, context };
}

/** A new IdP (its own key and certificate); `ssoUrl` is where it says AuthnRequests go. */
export async function testIdp(
  entityId = `https://idp.test/${randomUUID()}`,
  ssoUrl = 'https://idp.test/sso',
): Promise<TestIdp> {
  const { certificate, privateKey } = await signingIdentity();
  const idp = saml.IdentityProvider({
    entityID: entityId,
    signingCert: certificate,
    privateKey,
    singleSignOnService: [{ Binding: POST, Location: ssoUrl }],
    singleLogoutService: [{ Binding: POST, Location: `${ssoUrl}/logout` }],
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    isAssertionEncrypted: false,
  });
  return {
    entityId,
    metadata: idp.getMetadata(),
    async respond(parts) {
      const sp = saml.ServiceProvider({
        entityID: parts.audience,
        assertionConsumerService: [{ Binding: POST, Location: parts.recipient }],
        wantAssertionsSigned: true,
      });
      const { context } = await idp.createLoginResponse(sp, null as never, 'post', {}, () =>
        responseXml(entityId, parts),
      );
      return context;
    },
  };
}
