import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { sparErrors } from '../../api/errors/spar.js';
import { json } from '../../api/schemas/common.js';
import { runBatch, database, type Db } from '../../db/client.js';
import { featureEnabled } from '../../galley/face.js';
import { teamAdmin } from '../team-admin.js';
import { ownIdp } from './idp-access.js';
import { idpConfig, idpJson } from './idp-json.js';
import { parseIdpMetadata, type IdpMetadata } from './metadata.js';
import { idpStore, type IdpRow } from './idp-store.js';
import { scimTokenStore } from '../scim/scim-token-store.js';

const MAX_METADATA_BYTES = 1 << 20;

const metadataBody = {
  body: {
    required: true,
    content: {
      'application/xml': { schema: z.string() },
      'application/json': { schema: z.object({ value: z.string() }).openapi('IdPMetadataInfo') },
    },
  },
};
const handle = z.string().min(1).max(32).optional();
const writeErrors = [
  sparErrors.invalidMetadata,
  sparErrors.idpMustBeHttps,
  sparErrors.ssoDisabled,
  sparErrors.insufficientPermissions,
  sparErrors.noTeamMember,
] as const;

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The metadata XML of the body: raw `application/xml`, or JSON `{"value": xml}`. */
async function metadataOf(c: Context<AppEnv>): Promise<{ xml: string; metadata: IdpMetadata }> {
  const text = await c.req.text();
  if (text.length > MAX_METADATA_BYTES) throw new ApiError(sparErrors.invalidMetadata, 'Metadata too large');
  let xml = text;
  if ((c.req.header('content-type') ?? '').startsWith('application/json')) {
    const body = z.object({ value: z.string() }).safeParse(parsedJson(text));
    if (!body.success) throw new ApiError(sparErrors.invalidMetadata, 'Expected {"value": "<metadata XML>"}');
    xml = body.data.value;
  }
  const metadata = parseIdpMetadata(xml);
  if (new URL(metadata.requestUri).protocol !== 'https:')
    throw new ApiError(
      sparErrors.idpMustBeHttps,
      `an idp request uri must be https, not http or other: ${metadata.requestUri}`,
    );
  return { xml, metadata };
}

async function requireSso(c: Context<AppEnv>, db: Db, team: string): Promise<void> {
  if (!(await featureEnabled(db, c.get('config'), team, 'sso'))) throw new ApiError(sparErrors.ssoDisabled);
}

/** "IdP 1", "IdP 2", …: the first the team does not use. */
async function freeHandle(db: Db, team: string): Promise<string> {
  const used = await idpStore.handlesOf(db, team);
  for (let n = 1; ; n++) if (!used.has(`IdP ${n}`)) return `IdP ${n}`;
}

/** Whether another IdP holds the issuer where it must be unique: the instance for v1, the team for v2. */
function clashes(others: readonly IdpRow[], apiVersion: 1 | 2, team: string): boolean {
  return apiVersion === 1 ? others.length > 0 : others.some((o) => o.team === team);
}

export const createIdp = endpoint(
  {
    name: 'idp-create',
    method: 'post',
    path: '/identity-providers',
    request: {
      query: z.object({ replaces: z.uuid().optional(), api_version: z.enum(['v1', 'v2']).optional(), handle }),
      ...metadataBody,
    },
    errors: [
      ...writeErrors,
      sparErrors.idpAlreadyInUse,
      sparErrors.cannotMixApiVersions,
      sparErrors.idpNotFound,
      sparErrors.moreThanOneIdp,
    ],
    responses: { 201: { description: 'The identity provider', ...json(idpConfig) } },
  },
  async (c) => {
    const { team } = await teamAdmin(c, 'CreateUpdateDeleteIdp');
    const query = c.req.valid('query');
    const db = database(c.env.DB);
    const { xml, metadata } = await metadataOf(c);
    await requireSso(c, db, team);
    // Before v8 a SCIM token took the team's only IdP, so a team with tokens could not get a second.
    if ((c.get('apiVersion') ?? 0) < 8 && (await idpStore.ofTeam(db, team)).length > 0)
      if ((await scimTokenStore.countOfTeam(db, team)) > 0) throw new ApiError(sparErrors.moreThanOneIdp);
    const apiVersion = query.api_version === 'v2' ? 2 : 1;
    const replaced = query.replaces === undefined ? undefined : await idpStore.byId(db, query.replaces);
    if (query.replaces !== undefined && replaced?.team !== team) throw new ApiError(sparErrors.idpNotFound);
    const sameIssuer = await idpStore.byIssuer(db, metadata.issuer);
    if (clashes(sameIssuer, apiVersion, team))
      throw new ApiError(
        sparErrors.idpAlreadyInUse,
        apiVersion === 1
          ? 'an idp issuer can only be used once on the wire instance'
          : 'an idp issuer can only be used once in your team',
      );
    if (sameIssuer.some((o) => o.apiVersion !== apiVersion)) throw new ApiError(sparErrors.cannotMixApiVersions);
    const row: IdpRow = {
      id: crypto.randomUUID(),
      team,
      issuer: metadata.issuer,
      requestUri: metadata.requestUri,
      certs: metadata.certs,
      apiVersion,
      handle: query.handle ?? (await freeHandle(db, team)),
      oldIssuers: replaced === undefined ? [] : [replaced.issuer, ...replaced.oldIssuers],
      replacedBy: null,
      metadata: xml,
      createdAt: Date.now(),
    };
    await runBatch(db, [
      idpStore.insert(db, row),
      ...(replaced === undefined ? [] : [idpStore.update(db, replaced.id, { replacedBy: row.id })]),
    ]);
    return c.json(idpJson(row), 201);
  },
);

export const updateIdp = endpoint(
  {
    name: 'idp-update',
    method: 'put',
    path: '/identity-providers/{id}',
    request: { params: z.object({ id: z.uuid() }), query: z.object({ handle }), ...metadataBody },
    errors: [...writeErrors, sparErrors.idpIssuerInUse, sparErrors.idpNotFound],
    responses: { 200: { description: 'The identity provider', ...json(idpConfig) } },
  },
  async (c) => {
    const { idp, team } = await ownIdp(c, c.req.valid('param').id);
    const db = database(c.env.DB);
    const { xml, metadata } = await metadataOf(c);
    await requireSso(c, db, team);
    let oldIssuers = idp.oldIssuers;
    if (metadata.issuer !== idp.issuer) {
      const others = (await idpStore.byIssuer(db, metadata.issuer)).filter((o) => o.id !== idp.id);
      if (clashes(others, idp.apiVersion, team)) throw new ApiError(sparErrors.idpIssuerInUse);
      oldIssuers = [...new Set([idp.issuer, ...idp.oldIssuers])].filter((i) => i !== metadata.issuer);
    }
    const next: IdpRow = {
      ...idp,
      issuer: metadata.issuer,
      requestUri: metadata.requestUri,
      certs: metadata.certs,
      oldIssuers,
      metadata: xml,
      handle: c.req.valid('query').handle ?? idp.handle,
    };
    await idpStore.update(db, idp.id, next).run();
    return c.json(idpJson(next), 200);
  },
);
