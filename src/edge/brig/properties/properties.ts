import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { commonErrors } from '../../api/errors/common.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { commitChange } from '../../effects/commit-change.js';
import type { Effect } from '../../effects/effect.js';
import { publishEffect } from '../../events/publish.js';
import { userEvents } from '../../events/user-events.js';
import { accountObject } from '../clients/account-object.js';
import { clearPropertiesEffect, putPropertyEffect } from './property-effects.js';

const keyParam = { params: z.object({ key: z.string().min(1) }) };

/** The path key, which must be printable ASCII and within `setPropertyMaxKeyLen`. */
function keyOf(c: Context<AppEnv>, key: string): string {
  if (!/^[\x20-\x7e]+$/.test(key)) throw new ApiError(brigErrors.invalidPropertyKey);
  if (key.length > c.get('config').brig.optSettings.setPropertyMaxKeyLen)
    throw new ApiError(brigErrors.propertyKeyTooLarge);
  return key;
}

/** A change of the caller's own properties (in their Account object), with its event to their other sessions. */
const commitToSelf = (c: Context<AppEnv>, write: Effect, event: { type: string }) =>
  commitChange(c.env, c.get('config'), {
    statements: [],
    effects: [write, publishEffect([{ user: self(c).user }], event, { origin: self(c) })],
  });

const account = (c: Context<AppEnv>) => accountObject(c.env, self(c).user);

export const setProperty = endpoint(
  {
    name: 'set-property',
    method: 'put',
    path: '/properties/{key}',
    request: { ...keyParam, body: { required: true, ...json(z.unknown().openapi('PropertyValue')) } },
    errors: [
      brigErrors.invalidPropertyKey,
      brigErrors.propertyKeyTooLarge,
      brigErrors.tooManyProperties,
      brigErrors.propertyValueTooLarge,
    ],
    responses: { 200: { description: 'Property set' } },
  },
  async (c) => {
    const key = keyOf(c, c.req.valid('param').key);
    const { optSettings } = c.get('config').brig;
    const raw = await c.req.text();
    if (new TextEncoder().encode(raw).byteLength > optSettings.setPropertyMaxValueLen)
      throw new ApiError(brigErrors.propertyValueTooLarge);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ApiError(commonErrors.badRequest, 'The property value must be JSON');
    }
    const user = self(c).user;
    // Counted before the change: two requests of the user racing at the limit may both pass it.
    if ((await account(c).propertyCountBesides(user, key)) >= optSettings.setMaxProperties)
      throw new ApiError(brigErrors.tooManyProperties);
    const write = putPropertyEffect({ user, key, value: JSON.stringify(value), at: Date.now() });
    await commitToSelf(c, write, userEvents.propertySet(key, value));
    return c.body(null, 200);
  },
);

export const getProperty = endpoint(
  {
    name: 'get-property',
    method: 'get',
    path: '/properties/{key}',
    request: keyParam,
    responses: {
      200: { description: 'The property value', ...json(z.unknown()) },
      404: { description: 'No such property (empty body)' },
    },
  },
  async (c) => {
    const value = await account(c).property(self(c).user, keyOf(c, c.req.valid('param').key));
    if (value === undefined) return c.body(null, 404);
    return c.body(value, 200, { 'content-type': 'application/json' });
  },
);

export const listPropertyKeys = endpoint(
  {
    name: 'list-property-keys',
    method: 'get',
    path: '/properties',
    responses: { 200: { description: 'The keys', ...json(z.array(z.string())) } },
  },
  async (c) =>
    c.json(
      (await account(c).propertyList(self(c).user)).map((p) => p.key),
      200,
    ),
);

export const listPropertiesValues = endpoint(
  {
    name: 'list-properties',
    method: 'get',
    path: '/properties-values',
    responses: {
      200: {
        description: 'Keys and values',
        ...json(z.record(z.string(), z.unknown()).openapi('PropertyKeysAndValues')),
      },
    },
  },
  async (c) => {
    const all = await account(c).propertyList(self(c).user);
    return c.json(Object.fromEntries(all.map((p) => [p.key, JSON.parse(p.value) as unknown])), 200);
  },
);

export const deleteProperty = endpoint(
  {
    name: 'delete-property',
    method: 'delete',
    path: '/properties/{key}',
    request: keyParam,
    responses: { 200: { description: 'Property deleted (or absent)' } },
  },
  async (c) => {
    const key = keyOf(c, c.req.valid('param').key);
    const write = putPropertyEffect({ user: self(c).user, key, value: null, at: Date.now() });
    await commitToSelf(c, write, userEvents.propertyDelete(key));
    return c.body(null, 200);
  },
);

export const clearProperties = endpoint(
  {
    name: 'clear-properties',
    method: 'delete',
    path: '/properties',
    responses: { 200: { description: 'Every property deleted' } },
  },
  async (c) => {
    const write = clearPropertiesEffect({ user: self(c).user, at: Date.now() });
    await commitToSelf(c, write, userEvents.propertiesClear());
    return c.body(null, 200);
  },
);
