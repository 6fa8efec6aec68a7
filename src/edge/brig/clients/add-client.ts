import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { clientEvents } from './client-events.js';
import { enableQueueEffect, legacyClientEffect } from '../../gundeck/face.js';
import { publishEffect } from '../../events/publish.js';
import { clientsChangedEffect } from '../../galley/face.js';
import { enforceVerificationCode } from '../auth/verification-code.js';
import { checkUserPassword } from '../password/passwords.js';
import { selfRow } from '../users/self.js';
import { clientIdFromLastKey } from './client-id.js';
import { CONSUMABLE_NOTIFICATIONS, clientJson, clientJsonFor, legacyClientIds } from './client-json.js';
import { clientStore, type ClientRow } from './client-store.js';
import { checkCapabilities, checkPrekeys, newClient } from './new-client.js';
import { accountObject } from './account-object.js';
import { clientsGoneEffects } from './clients-gone.js';
import { deps } from '../../api/deps.js';

/**
 * `POST /clients`: registers a device. Its id comes from the last-resort key, so registering the
 * same key again updates that client. A second client of a type needs the password; permanent
 * clients are limited to `setUserMaxPermClients`; a new temporary client replaces the old one.
 */
export const addClient = endpoint(
  {
    name: 'add-client',
    method: 'post',
    path: '/clients',
    request: jsonBody(newClient),
    errors: [
      brigErrors.malformedPrekeys,
      brigErrors.malformedCapabilities,
      brigErrors.legalholdClientManually,
      brigErrors.missingAuth,
      brigErrors.invalidCredentials,
      brigErrors.tooManyClients,
      brigErrors.codeAuthenticationRequired,
      brigErrors.codeAuthenticationFailed,
    ],
    responses: { 201: { description: 'Client registered', ...json(clientJson) } },
  },
  async (c) => {
    const body = c.req.valid('json');
    const version = c.get('apiVersion') ?? 0;
    checkCapabilities(body.capabilities, version);
    if (body.type === 'legalhold') throw new ApiError(brigErrors.legalholdClientManually);
    const config = c.get('config');
    const db = database(c.env.DB);
    const user = await selfRow(c);
    await enforceVerificationCode(db, config, user, 'login', body.verification_code);

    const id = await clientIdFromLastKey(body.lastkey.key);
    const all = await clientStore.list(db, user.id);
    const existing = all.find((cl) => cl.id === id);
    const sameType = all.filter((cl) => cl.id !== id && cl.type === body.type);
    if (existing === undefined && sameType.length > 0 && user.ssoId === null) {
      if (body.password === undefined) throw new ApiError(brigErrors.missingAuth);
      if (!(await checkUserPassword(c.env, db, config, { user: user.id }, user, body.password)))
        throw new ApiError(brigErrors.invalidCredentials);
    }
    const maxPermanent = config.brig.optSettings.setUserMaxPermClients;
    if (existing === undefined && body.type === 'permanent' && sameType.length >= maxPermanent)
      throw new ApiError(brigErrors.tooManyClients);
    checkPrekeys(body.prekeys, body.lastkey);
    const mlsKeys = { ...(existing?.mlsPublicKeys ?? {}) };
    for (const [scheme, key] of Object.entries(body.mls_public_keys ?? {})) {
      if (mlsKeys[scheme] !== undefined) throw new ApiError(brigErrors.mlsDuplicatePublicKey);
      mlsKeys[scheme] = key;
    }

    const row: ClientRow = {
      user: user.id,
      id,
      type: body.type,
      class: body.class ?? null,
      label: body.label ?? null,
      model: body.model ?? null,
      cookie: body.cookie ?? null,
      capabilities: [...new Set(body.capabilities ?? [])],
      mlsPublicKeys: mlsKeys,
      createdAt: Date.now(),
      lastActive: existing?.lastActive ?? null,
    };
    // Only one temporary client: the new one replaces any other.
    const replaced = body.type === 'temporary' ? sameType : [];
    // The prekeys first: a client whose row is written has them. If the row's write fails, they
    // stay unreached (the id is the last-resort key's: registering it again reaches them).
    await accountObject(c.env, user.id).putPrekeys(user.id, id, [...body.prekeys, body.lastkey]);
    const statements = [clientStore.upsert(db, row), ...replaced.map((old) => clientStore.delete(db, user.id, old.id))];
    const gone = replaced.map((old) => old.id);
    const legacy = legacyClientIds(all, [id, ...gone]);
    const origin = self(c);
    const toUser = [{ user: user.id }];
    await commitChange(c.env, config, {
      statements,
      effects: [
        ...clientsGoneEffects(user.id, gone),
        row.capabilities.includes(CONSUMABLE_NOTIFICATIONS)
          ? enableQueueEffect({ user: user.id, client: id, legacy })
          : legacyClientEffect({ user: user.id, client: id, legacy }),
        clientsChangedEffect({ id: user.id, domain: deps(c).domain }, gone),
        ...gone.map((old) => publishEffect(toUser, clientEvents.remove(old), { origin })),
        publishEffect(toUser, clientEvents.add(row), { origin }),
      ],
    });
    c.header('location', id);
    return c.json(clientJsonFor({ ...row, lastActive: null }, version), 201);
  },
);
