import type { Endpoint } from '../api/endpoint.js';
import { deleteIdp } from './idp/idp-delete.js';
import { getIdp, getIdpRaw, listIdps } from './idp/idp-read.js';
import { createIdp, updateIdp } from './idp/idp-write.js';
import { finalizeLogin, finalizeLoginForTeam } from './saml/finalize-login.js';
import { initiateLogin } from './saml/initiate-login.js';
import { spMetadata, spMetadataForTeam } from './saml/sp-metadata.js';
import { getSsoSettings, putSsoSettings } from './sso-settings.js';
import {
  createScimToken,
  createScimTokenV7,
  deleteScimToken,
  listScimTokens,
  listScimTokensV7,
  renameScimToken,
} from './scim/scim-tokens.js';
import { scimResourceTypes, scimSchema, scimSchemas, scimServiceProviderConfig } from './scim/scim-meta.js';
import {
  createScimUserRoute,
  deleteScimUserRoute,
  getScimUser,
  listScimUsers,
  patchScimUser,
  replaceScimUserRoute,
} from './scim/scim-users.js';

export const sparPublic: Endpoint[] = [
  listIdps,
  getIdpRaw,
  getIdp,
  createIdp,
  updateIdp,
  deleteIdp,
  spMetadata,
  spMetadataForTeam,
  getSsoSettings,
  initiateLogin,
  finalizeLogin,
  finalizeLoginForTeam,
  createScimTokenV7,
  createScimToken,
  listScimTokensV7,
  listScimTokens,
  deleteScimToken,
  renameScimToken,
  createScimUserRoute,
  listScimUsers,
  getScimUser,
  replaceScimUserRoute,
  patchScimUser,
  deleteScimUserRoute,
  scimServiceProviderConfig,
  scimSchemas,
  scimSchema,
  scimResourceTypes,
];

/** spar's internal routes (`/i/sso/...`). */
export const sparInternal: Endpoint[] = [putSsoSettings];
