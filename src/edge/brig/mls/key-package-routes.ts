import { z } from '@hono/zod-openapi';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { deps } from '../../api/deps.js';
import { accountObject } from '../clients/account-object.js';
import { requireMlsEnabled } from './mls-switch.js';
import { parseSuite, suiteText } from './suite-query.js';
import { checkedUpload } from './upload.js';

const keyPackage = z.string().openapi('KeyPackage');
const keyPackageRef = z.string().openapi('KeyPackageRef');
const upload = z.object({ key_packages: z.array(keyPackage) }).openapi('KeyPackageUpload');
const deletion = z.object({ key_packages: z.array(keyPackageRef).min(1).max(1000) }).openapi('DeleteKeyPackages');
const clientParam = z.object({ client: z.string().regex(CLIENT_ID_PATTERN) });
const created = { 201: { description: 'Key packages stored' } };
const uploadErrors = [mlsErrors.mlsNotEnabled, mlsErrors.mlsProtocolError, mlsErrors.mlsInvalidLeafNodeSignature];

/** `POST /mls/key-packages/self/{client}`: stores the client's packages (the suite is each package's own). */
export const uploadKeyPackages = endpoint(
  {
    name: 'mls-key-packages-upload',
    method: 'post',
    path: '/mls/key-packages/self/{client}',
    from: 5,
    request: { params: clientParam, ...jsonBody(upload) },
    errors: uploadErrors,
    responses: created,
  },
  async (c) => {
    requireMlsEnabled(c);
    const { client } = c.req.valid('param');
    const me = self(c).user;
    const packages = await checkedUpload(c, deps(c).db, client, c.req.valid('json').key_packages);
    await accountObject(c.env, me).addKeyPackages(me, packages);
    return c.body(null, 201);
  },
);

/**
 * `PUT /mls/key-packages/self/{client}?ciphersuites=`: replaces every package of the named suites
 * (default 0x0001; an empty list names none) with the uploaded ones, which must be of exactly those suites.
 */
export const replaceKeyPackages = endpoint(
  {
    name: 'mls-key-packages-replace',
    method: 'put',
    path: '/mls/key-packages/self/{client}',
    from: 5,
    request: { params: clientParam, query: z.object({ ciphersuites: z.string().optional() }), ...jsonBody(upload) },
    errors: uploadErrors,
    responses: created,
  },
  async (c) => {
    requireMlsEnabled(c);
    const { client } = c.req.valid('param');
    const raw = c.req.valid('query').ciphersuites;
    // `ciphersuites=` names no suite: then nothing may be uploaded, and nothing is replaced.
    const listed = raw === undefined ? [undefined] : raw.trim() === '' ? [] : raw.split(',');
    const suites = new Set(listed.map((s) => parseSuite(s?.trim())));
    const packages = await checkedUpload(c, deps(c).db, client, c.req.valid('json').key_packages);
    const uploaded = new Set(packages.map((r) => r.cipherSuite));
    if (uploaded.size !== suites.size || [...uploaded].some((s) => !suites.has(s)))
      throw new ApiError(mlsErrors.mlsProtocolError, 'uploaded key packages for unannounced cipher suites');
    if (suites.size === 0) return c.body(null, 201);
    const me = self(c).user;
    await accountObject(c.env, me).addKeyPackages(me, packages, { client, suites: [...suites] });
    return c.body(null, 201);
  },
);

/** `DELETE /mls/key-packages/self/{client}?ciphersuite=`: deletes the listed packages of one suite. */
export const deleteKeyPackages = endpoint(
  {
    name: 'mls-key-packages-delete',
    method: 'delete',
    path: '/mls/key-packages/self/{client}',
    from: 5,
    request: { params: clientParam, query: z.object({ ciphersuite: suiteText.optional() }), ...jsonBody(deletion) },
    errors: [mlsErrors.mlsNotEnabled, mlsErrors.mlsProtocolError],
    responses: { 201: { description: 'Key packages deleted' } },
  },
  async (c) => {
    requireMlsEnabled(c);
    const { client } = c.req.valid('param');
    const suite = parseSuite(c.req.valid('query').ciphersuite);
    const me = self(c).user;
    await accountObject(c.env, me).deleteKeyPackages(me, client, suite, c.req.valid('json').key_packages);
    return c.body(null, 201);
  },
);

/** `GET /mls/key-packages/self/{client}/count?ciphersuite=`: the client's unclaimed, unexpired packages. */
export const countKeyPackages = endpoint(
  {
    name: 'mls-key-packages-count',
    method: 'get',
    path: '/mls/key-packages/self/{client}/count',
    from: 5,
    request: { params: clientParam, query: z.object({ ciphersuite: suiteText.optional() }) },
    errors: [mlsErrors.mlsNotEnabled, mlsErrors.mlsProtocolError],
    responses: {
      200: { description: 'Number of key packages', ...json(z.object({ count: z.int() }).openapi('OwnKeyPackages')) },
    },
  },
  async (c) => {
    requireMlsEnabled(c);
    const { client } = c.req.valid('param');
    const suite = parseSuite(c.req.valid('query').ciphersuite);
    const now = Math.floor(Date.now() / 1000);
    const me = self(c).user;
    const count = await accountObject(c.env, me).countKeyPackages(me, client, suite, now);
    return c.json({ count }, 200);
  },
);
