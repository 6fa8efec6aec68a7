import type { Endpoint } from '../api/endpoint.js';
import { getApiVersion } from './api-version.js';
import { addFederationRemote, getFederationRemotes, updateFederationRemote } from './federation/remotes.js';
import { getStatus } from './status.js';
import { getSystemSettingsUnauthorized } from './system-settings.js';

export const brigPublic: Endpoint[] = [getApiVersion, getSystemSettingsUnauthorized];
export const brigInternal: Endpoint[] = [
  getStatus,
  getFederationRemotes,
  addFederationRemote,
  updateFederationRemote,
];
