import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { commonErrors } from '../../api/errors/common.js';
import { json, jsonBody, locale } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { publishEffect } from '../../events/publish.js';
import { userEvents } from '../../events/user-events.js';
import { codeStore } from '../codes/code-store.js';
import { selfJson } from '../users/user-json.js';
import { emailKeyOf, isValidEmail, userStore } from '../users/user-store.js';
import {
  ACTIVATION_RETRIES,
  activationKeyOf,
  sendActivationCode,
  setVerifiedEmail,
  verifiedEmail,
} from './activation.js';
import { guardRegisterOrActivate } from '../domains/email-guards.js';
import { domainErrors } from '../../api/errors/domains.js';
import { deps } from '../../api/deps.js';
import { userByEmail } from '../users/user-names.js';

const activationErrors = [
  brigErrors.invalidActivationCode,
  brigErrors.activationUserMissing,
  brigErrors.keyExists,
  domainErrors.emailDomainGuard,
];

const activationResponse = z
  .object({ email: z.string().optional(), first: z.boolean().optional() })
  .openapi('ActivationResponse');

type Outcome = { kind: 'activated'; email: string; first: boolean } | { kind: 'already' } | { kind: 'dryrun' };

/** Checks an activation code and, unless it is a dry run, verifies the address for its user. */
async function activate(c: Context<AppEnv>, key: string, code: string, dryrun: boolean): Promise<Outcome> {
  const config = c.get('config');
  const db = database(c.env.DB);
  const check = await codeStore.check(db, 'activation', key, code, ACTIVATION_RETRIES);
  if (!check.ok) throw new ApiError(brigErrors.invalidActivationCode);
  const { user: userId, email } = check.stored;
  if (userId === null || email === null) throw new ApiError(brigErrors.activationUserMissing);
  const user = await userStore.byId(db, userId);
  if (user === undefined || user.status !== 'active') throw new ApiError(brigErrors.invalidActivationCode);
  if (user.activated && user.emailKey === emailKeyOf(email)) return { kind: 'already' };
  const owner = await userByEmail(c.env, email);
  if (owner !== undefined && owner.id !== user.id && owner.activated) throw new ApiError(brigErrors.keyExists);
  await guardRegisterOrActivate(db, email);
  if (dryrun) return { kind: 'dryrun' };
  const first = !user.activated;
  const domain = deps(c).domain;
  const event = first
    ? userEvents.activate(selfJson({ ...user, ...verifiedEmail(email) }, domain))
    : userEvents.update({ id: user.id, email });
  await setVerifiedEmail(c.env, config, user.id, email, [publishEffect([{ user: user.id }], event)]);
  return { kind: 'activated', email, first };
}

function respond(c: Context<AppEnv>, outcome: Outcome) {
  if (outcome.kind === 'already') return c.body(null, 204);
  if (outcome.kind === 'dryrun') return c.body(null, 200);
  return c.json({ email: outcome.email, first: outcome.first }, 200);
}

export const postActivate = endpoint(
  {
    name: 'activate',
    method: 'post',
    path: '/activate',
    auth: 'none',
    request: jsonBody(
      z
        .object({ key: z.string().optional(), email: z.string().optional(), code: z.string(), dryrun: z.boolean() })
        .openapi('Activate'),
    ),
    errors: activationErrors,
    responses: {
      200: { description: 'Activation successful (empty for a dry run)', ...json(activationResponse) },
      204: { description: 'A recent activation was already successful' },
    },
  },
  async (c) => {
    const body = c.req.valid('json');
    const key = body.key ?? (body.email === undefined ? undefined : await activationKeyOf(body.email));
    if (key === undefined) throw new ApiError(commonErrors.badRequest, 'key or email is required');
    return respond(c, await activate(c, key, body.code, body.dryrun));
  },
);

export const getActivate = endpoint(
  {
    name: 'activate-key',
    method: 'get',
    path: '/activate',
    auth: 'none',
    request: { query: z.object({ key: z.string(), code: z.string() }) },
    errors: activationErrors,
    responses: {
      200: { description: 'Activation successful', ...json(activationResponse) },
      204: { description: 'A recent activation was already successful' },
    },
  },
  async (c) => {
    const { key, code } = c.req.valid('query');
    return respond(c, await activate(c, key, code, false));
  },
);

export const sendActivation = endpoint(
  {
    name: 'post-activate-send',
    method: 'post',
    path: '/activate/send',
    auth: 'none',
    request: jsonBody(
      z
        .object({ email: z.string(), locale: locale.optional(), phone: z.unknown().optional() })
        .openapi('SendActivationCode'),
    ),
    errors: [brigErrors.invalidEmail, brigErrors.invalidPhone, brigErrors.keyExists],
    responses: { 200: { description: 'Activation code sent' } },
  },
  async (c) => {
    const body = c.req.valid('json');
    if (body.phone !== undefined) throw new ApiError(brigErrors.invalidPhone);
    if (!isValidEmail(body.email)) throw new ApiError(brigErrors.invalidEmail);
    const db = database(c.env.DB);
    if ((await userByEmail(c.env, body.email))?.activated) throw new ApiError(brigErrors.keyExists);
    const config = c.get('config');
    const pending = await codeStore.live(db, 'activation', await activationKeyOf(body.email));
    const owner = pending?.user ? await userStore.byId(db, pending.user) : undefined;
    await sendActivationCode(
      c.env,
      db,
      config,
      {
        email: body.email,
        user: owner?.id,
        name: owner?.name,
        locale: body.locale ?? owner?.locale,
      },
      { resend: true },
    );
    return c.body(null, 200);
  },
);

export const getActivationCode = endpoint(
  {
    name: 'get-activation-code',
    method: 'get',
    path: '/i/users/activation-code',
    request: { query: z.object({ email: z.string() }) },
    errors: [brigErrors.activationKeyNotFound],
    responses: { 200: { description: 'The pending code', ...json(z.object({ key: z.string(), code: z.string() })) } },
  },
  async (c) => {
    const key = await activationKeyOf(c.req.valid('query').email);
    const stored = await codeStore.live(database(c.env.DB), 'activation', key);
    if (stored === undefined) throw new ApiError(brigErrors.activationKeyNotFound);
    return c.json({ key, code: stored.code }, 200);
  },
);
