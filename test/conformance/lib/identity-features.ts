import { expect } from 'vitest';
import { api } from '../../helpers/users.js';
import type { TestSocket } from '../../helpers/websocket.js';
import { as, awaitEvent, type Backend, createTeam, randomUser, type User, userSocket } from './identity-users.js';

const galleyInternal = (b: User | Backend) => api('backend' in b ? b.backend.internalUrl : b.internalUrl);

/** galley's internal `PATCH /i/teams/{tid}/features/{name}` with a status only. */
export const setFeatureStatus = (b: User | Backend, tid: string, name: string, status: string) =>
  galleyInternal(b).patch(`/i/teams/${tid}/features/${name}`, { status });

/** galley's internal `PATCH` with a whole (partial) feature. */
export const patchFeature = (b: User | Backend, tid: string, name: string, body: unknown) =>
  galleyInternal(b).patch(`/i/teams/${tid}/features/${name}`, body);

/** galley's internal `PUT`: the whole feature. */
export const putFeatureInternal = (b: User | Backend, tid: string, name: string, body: unknown) =>
  galleyInternal(b).put(`/i/teams/${tid}/features/${name}`, body);

export const getFeatureInternal = (b: User | Backend, tid: string, name: string) =>
  galleyInternal(b).get(`/i/teams/${tid}/features/${name}`);

/** galley's internal lock status change; 200 expected. */
export async function setLockStatus(b: User | Backend, tid: string, name: string, lock: 'locked' | 'unlocked') {
  const r = await galleyInternal(b).put(`/i/teams/${tid}/features/${name}/${lock}`);
  expect(r.status, r.text).toBe(200);
}

/** wire's `disabled`, `enabled` and `disabledLocked` feature values. */
export const disabled = { lockStatus: 'unlocked', status: 'disabled', ttl: 'unlimited' };
export const disabledLocked = { lockStatus: 'locked', status: 'disabled', ttl: 'unlimited' };
export const enabled = { lockStatus: 'unlocked', status: 'enabled', ttl: 'unlimited' };

/** Features whose lock status is part of their definition (wire's hasExplicitLockStatus). */
const EXPLICIT_LOCK = new Set([
  'fileSharing',
  'conferenceCalling',
  'selfDeletingMessages',
  'guestLinks',
  'sndFactorPasswordChallenge',
  'outlookCalIntegration',
  'enforceFileDownloadLocation',
  'domainRegistration',
  'meetings',
  'meetingsPremium',
]);

export type Access = 'internal' | 'public';
type Json = Record<string, any>;

/** Sets a whole feature through galley's internal API or the team's public one. */
const setFeature = (access: Access, owner: User, tid: string, name: string, value: unknown) =>
  access === 'internal'
    ? putFeatureInternal(owner, tid, name, value)
    : as(owner).put(`/teams/${tid}/features/${name}`, value);

/** wire's checkFeature: the internal view, the team's list, the one feature and the user's feature-configs agree. */
export async function checkFeature(name: string, user: User, tid: string, expected: unknown): Promise<void> {
  const internalView = await getFeatureInternal(user, tid, name);
  expect(internalView.status, internalView.text).toBe(200);
  expect(internalView.body).toEqual(expected);
  const all = await as(user).get(`/teams/${tid}/features`);
  expect(all.status, all.text).toBe(200);
  expect(all.body[name]).toEqual(expected);
  const one = await as(user).get(`/teams/${tid}/features/${name}`);
  expect(one.status, one.text).toBe(200);
  expect(one.body).toEqual(expected);
  const configs = await as(user).get('/feature-configs');
  expect(configs.status, configs.text).toBe(200);
  expect(configs.body[name]).toEqual(expected);
}

const withoutTtl = ({ ttl: _, ...rest }: Json) => rest;

/** wire's setFlag: a change over the API, its `feature-config.update` event, and the new value everywhere. */
export async function setFlag(access: Access, ws: TestSocket, owner: User, tid: string, name: string, value: Json) {
  const r = await setFeature(access, owner, tid, name, withoutTtl(value));
  expect(r.status, r.text).toBe(200);
  const expected = { ...value, lockStatus: 'unlocked', ttl: 'unlimited' };
  const event = await awaitEvent(ws, 'feature-config.update', (e) => e.name === name);
  expect(event.data).toEqual(expected);
  await checkFeature(name, owner, tid, expected);
}

export interface FeatureTests {
  name: string;
  updates: Json[];
  invalidUpdates: Json[];
  owner?: User;
}

/**
 * wire's runFeatureTests: a personal user sees the default; a team sees it; locked, updates are
 * refused (409); unlocked, each update is announced and seen, invalid ones are refused (400)
 * without event; locking falls back to the default, unlocking brings the last update back.
 */
export async function runFeatureTests(b: Backend, access: Access, defaults: Json, ft: FeatureTests): Promise<void> {
  const def = defaults[ft.name];
  const personal = await randomUser(b);
  const configs = await as(personal).get('/feature-configs');
  expect(configs.status, configs.text).toBe(200);
  const feat = configs.body[ft.name];
  expect(feat).toEqual({ ...def, lockStatus: feat.lockStatus });

  const owner = ft.owner ?? (await createTeam(b)).owner;
  const tid = owner.team!;
  await checkFeature(ft.name, owner, tid, def);

  await setLockStatus(owner, tid, ft.name, 'locked');
  const locked = await as(owner).get(`/teams/${tid}/features/${ft.name}`);
  expect(locked.status, locked.text).toBe(200);
  expect(locked.body.lockStatus).toBe('locked');
  await checkFeature(ft.name, owner, tid, { ...def, lockStatus: 'locked' });
  for (const update of ft.updates) {
    const r = await setFeature(access, owner, tid, ft.name, update);
    expect(r.status, r.text).toBe(409);
  }

  await setLockStatus(owner, tid, ft.name, 'unlocked');
  const ws = await userSocket(owner);
  try {
    for (const update of ft.updates) await setFlag(access, ws, owner, tid, ft.name, update);
    for (const update of ft.invalidUpdates) {
      const r = await setFeature(access, owner, tid, ft.name, update);
      expect(r.status, r.text).toBe(400);
      await new Promise((res) => setTimeout(res, 2000));
      expect(ws.messages.filter((m: any) => m?.payload?.some((e: any) => e.type === 'feature-config.update'))).toEqual(
        [],
      );
    }
  } finally {
    await ws.close();
  }

  await setLockStatus(owner, tid, ft.name, 'locked');
  await checkFeature(ft.name, owner, tid, { ...def, lockStatus: 'locked' });
  await setLockStatus(owner, tid, ft.name, 'unlocked');
  const last = ft.updates.at(-1);
  if (last !== undefined)
    await checkFeature(ft.name, owner, tid, { ...last, lockStatus: 'unlocked', ttl: 'unlimited' });
}

/**
 * wire's checkPatchWithComputeExpected: a new team sees the default, an internal PATCH changes it;
 * locked, the default comes back (with the lock); unlocked, status and config are as computed.
 */
export async function checkPatch(
  b: Backend,
  defaults: Json,
  name: string,
  patch: Json,
  compute: (key: 'status' | 'config', def: Json, patch: Json) => unknown = (key, def, p) => p[key] ?? def[key],
): Promise<void> {
  const { owner, tid } = await createTeam(b);
  const def = defaults[name];
  await checkFeature(name, owner, tid, def);
  const r = await patchFeature(owner, tid, name, patch);
  expect(r.status, r.text).toBe(200);
  const patched = (await getFeatureInternal(owner, tid, name)).body;
  await checkFeature(name, owner, tid, patched);
  if (patched.lockStatus === 'locked') {
    expect(patched).toEqual({ ...def, lockStatus: 'locked' });
    expect(patch.lockStatus ?? def.lockStatus).toBe('locked');
    return;
  }
  expect(patched.status).toEqual(compute('status', def, patch));
  if (patched.config !== undefined) expect(patched.config).toEqual(compute('config', def, patch));
  else expect(def.config).toBeUndefined();
  if (EXPLICIT_LOCK.has(name)) expect(patch.lockStatus ?? def.lockStatus).toBe('unlocked');
}
