import { expect } from 'vitest';
import { api } from '../../helpers/users.js';
import type { Backend, User } from './identity-users.js';

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

/** Unlock (when lockable) and enable. */
export async function enableFeature(b: User | Backend, tid: string, name: string): Promise<void> {
  await galleyInternal(b).put(`/i/teams/${tid}/features/${name}/unlocked`);
  const r = await setFeatureStatus(b, tid, name, 'enabled');
  expect(r.status, r.text).toBe(200);
}
