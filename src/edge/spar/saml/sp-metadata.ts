// `GET /sso/metadata[/{team}]`: this backend as a SAML service provider, for the team admin to
// give their IdP: the entity id, where assertions are posted (HTTP-POST) and who to contact.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { sparErrors } from '../../api/errors/spar.js';
import { finalizeLoginUrl, type ServiceProvider, serviceProvider } from '../service-provider.js';
import { escapeXml, NS } from '../xml.js';

const DAY_MS = 24 * 3600 * 1000;
const CONTACT_TYPES: Record<string, string> = {
  ContactTechnical: 'technical',
  ContactSupport: 'support',
  ContactAdministrative: 'administrative',
  ContactBilling: 'billing',
  ContactOther: 'other',
};

const element = (name: string, text: string | undefined) =>
  text === undefined ? '' : `<md:${name}>${escapeXml(text)}</md:${name}>`;

function contactXml(c: Record<string, string>): string {
  return (
    `<md:ContactPerson contactType="${CONTACT_TYPES[c.type!] ?? 'other'}">` +
    element('Company', c.company) +
    element('GivenName', c.givenName) +
    element('SurName', c.surname) +
    element('EmailAddress', c.email === undefined ? undefined : `mailto:${c.email.replace(/^mailto:/, '')}`) +
    element('TelephoneNumber', c.phone) +
    '</md:ContactPerson>'
  );
}

function metadataXml(sp: ServiceProvider, entityId: string, now: number): string {
  const validUntil = new Date(now + 365 * DAY_MS).toISOString();
  const id = escapeXml(entityId);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<md:EntityDescriptor xmlns:md="${NS.md}" entityID="${id}">` +
    `<md:SPSSODescriptor ID="_${crypto.randomUUID()}" validUntil="${validUntil}" cacheDuration="P30D"` +
    ` protocolSupportEnumeration="${NS.samlp}" AuthnRequestsSigned="false" WantAssertionsSigned="true">` +
    '<md:Organization><md:OrganizationName xml:lang="EN">spar</md:OrganizationName>' +
    `<md:OrganizationDisplayName xml:lang="EN">spar</md:OrganizationDisplayName><md:OrganizationURL xml:lang="EN">${id}</md:OrganizationURL></md:Organization>` +
    sp.contacts.map(contactXml).join('') +
    '<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</md:NameIDFormat>' +
    '<md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:entity</md:NameIDFormat>' +
    `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${id}" index="0" isDefault="true"/>` +
    '</md:SPSSODescriptor></md:EntityDescriptor>'
  );
}

const XML = { 'content-type': 'application/xml' };

/** The metadata of the request's service provider, as the entity v1 or a team's v2 IdPs answer. */
function metadataOf(c: Context<AppEnv>, idp: { apiVersion: 1 | 2; team: string }): string {
  const sp = serviceProvider(c);
  return metadataXml(sp, finalizeLoginUrl(sp, idp), Date.now());
}

const xmlResponse = { 200: { description: 'SAML metadata', content: { 'application/xml': { schema: z.string() } } } };

/** v1 IdPs: one entity for the whole instance (deprecated: IdPs of several teams cannot share it). */
export const spMetadata = endpoint(
  {
    name: 'sso-metadata',
    method: 'get',
    path: '/sso/metadata',
    auth: 'none',
    errors: [sparErrors.spNotFound],
    responses: xmlResponse,
  },
  async (c) => c.body(metadataOf(c, { apiVersion: 1, team: '' }), 200, XML),
);

export const spMetadataForTeam = endpoint(
  {
    name: 'sso-team-metadata',
    method: 'get',
    path: '/sso/metadata/{team}',
    auth: 'none',
    request: { params: z.object({ team: z.uuid() }) },
    errors: [sparErrors.spNotFound],
    responses: xmlResponse,
  },
  async (c) => c.body(metadataOf(c, { apiVersion: 2, team: c.req.valid('param').team }), 200, XML),
);
