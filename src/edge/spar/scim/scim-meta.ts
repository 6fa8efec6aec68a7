// What a SCIM client may learn before it has a token (RFC 7643 §5–7): what is supported, the
// schemas and the resource types.
import { z } from '@hono/zod-openapi';
import { scimEndpoint, scimList, scimResponse } from './scim-endpoint.js';
import { scimErrors, scimJson } from './scim-error.js';
import { CORE_USER_SCHEMA } from './scim-user-input.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0';

const SERVICE_PROVIDER_CONFIG = {
  schemas: [`${CORE}:ServiceProviderConfig`],
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: 1 },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'OAuth Bearer Token',
      description: 'A SCIM token a team admin creates under /scim/auth-tokens, as Authorization: Bearer <token>',
      specUri: 'https://www.rfc-editor.org/info/rfc6750',
      primary: true,
    },
  ],
};

type Attr = [name: string, type: string, extra?: Record<string, unknown>];
const attribute = ([name, type, extra = {}]: Attr) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});
const schemaDoc = (id: string, name: string, attributes: Attr[]) => ({
  schemas: [`${CORE}:Schema`],
  id,
  name,
  description: `${name} schema`,
  attributes: attributes.map(attribute),
  meta: { resourceType: 'Schema', location: `/Schemas/${id}` },
});
const subValue = (type = 'string'): Attr => ['value', type];

const SCHEMAS = [
  schemaDoc(CORE_USER_SCHEMA, 'User', [
    ['userName', 'string', { required: true, uniqueness: 'server' }],
    ['externalId', 'string', { caseExact: true }],
    ['displayName', 'string'],
    ['preferredLanguage', 'string'],
    ['active', 'boolean'],
    [
      'emails',
      'complex',
      { multiValued: true, subAttributes: [subValue(), ['primary', 'boolean']].map((a) => attribute(a as Attr)) },
    ],
    ['roles', 'complex', { multiValued: true, subAttributes: [attribute(subValue())] }],
  ]),
  schemaDoc(`${CORE}:ServiceProviderConfig`, 'Service Provider Configuration', [
    ['patch', 'complex', { required: true, mutability: 'readOnly' }],
    ['bulk', 'complex', { required: true, mutability: 'readOnly' }],
    ['filter', 'complex', { required: true, mutability: 'readOnly' }],
    ['changePassword', 'complex', { required: true, mutability: 'readOnly' }],
    ['sort', 'complex', { required: true, mutability: 'readOnly' }],
    ['etag', 'complex', { required: true, mutability: 'readOnly' }],
    ['authenticationSchemes', 'complex', { required: true, multiValued: true, mutability: 'readOnly' }],
  ]),
  schemaDoc(`${CORE}:Group`, 'Group', [
    ['displayName', 'string', { required: true }],
    ['members', 'complex', { multiValued: true }],
  ]),
  schemaDoc(`${CORE}:Schema`, 'Schema', [
    ['id', 'string', { required: true, mutability: 'readOnly' }],
    ['name', 'string', { mutability: 'readOnly' }],
    ['description', 'string', { mutability: 'readOnly' }],
    ['attributes', 'complex', { required: true, multiValued: true, mutability: 'readOnly' }],
  ]),
  schemaDoc(`${CORE}:ResourceType`, 'Resource Type', [
    ['id', 'string', { mutability: 'readOnly' }],
    ['name', 'string', { required: true, mutability: 'readOnly' }],
    ['endpoint', 'reference', { required: true, mutability: 'readOnly' }],
    ['schema', 'reference', { required: true, mutability: 'readOnly' }],
  ]),
];

const RESOURCE_TYPES = [
  {
    schemas: [`${CORE}:ResourceType`],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    schema: CORE_USER_SCHEMA,
    meta: { resourceType: 'ResourceType', location: '/ResourceTypes/User' },
  },
];

export const scimServiceProviderConfig = scimEndpoint(
  {
    name: 'scim-service-provider-config',
    method: 'get',
    path: '/scim/v2/ServiceProviderConfig',
    hide: true,
    responses: { 200: scimResponse('What this SCIM service supports') },
  },
  async () => scimJson(SERVICE_PROVIDER_CONFIG, 200),
);

export const scimSchemas = scimEndpoint(
  {
    name: 'scim-schemas',
    method: 'get',
    path: '/scim/v2/Schemas',
    hide: true,
    responses: { 200: scimResponse('The schemas') },
  },
  async () => scimJson(scimList(SCHEMAS), 200),
);

export const scimSchema = scimEndpoint(
  {
    name: 'scim-schema',
    method: 'get',
    path: '/scim/v2/Schemas/{id}',
    hide: true,
    request: { params: z.object({ id: z.string() }) },
    responses: { 200: scimResponse('One schema') },
  },
  async (c) => {
    const { id } = c.req.valid('param');
    const doc = SCHEMAS.find((s) => s.id === id);
    if (doc === undefined) throw scimErrors.notFound('Schema', id);
    return scimJson(doc, 200);
  },
);

export const scimResourceTypes = scimEndpoint(
  {
    name: 'scim-resource-types',
    method: 'get',
    path: '/scim/v2/ResourceTypes',
    hide: true,
    responses: { 200: scimResponse('The resource types') },
  },
  async () => scimJson(scimList(RESOURCE_TYPES), 200),
);
