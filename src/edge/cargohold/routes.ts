import type { Endpoint } from '../api/endpoint.js';
import { downloadAsset, downloadAssetV3, downloadAssetV4 } from './download.js';
import { getAsset, streamAsset } from './federation-api.js';
import {
  deleteAssetRoute,
  deleteAssetToken,
  deleteAssetTokenV3,
  deleteAssetV3,
  deleteAssetV4,
  renewAssetToken,
  renewAssetTokenV3,
} from './manage.js';
import { uploadAsset, uploadAssetV3 } from './upload.js';
import { legacyConversationDownload, legacyDownload, legacyOtrDownload } from './legacy-download.js';
import { principalAssetEndpoints } from './principal-assets.js';

// `DELETE /assets/{key}/token` before `DELETE /assets/{key_domain}/{key}`, which its path also matches.
export const cargoholdPublic: Endpoint[] = [
  uploadAsset,
  uploadAssetV3,
  renewAssetToken,
  renewAssetTokenV3,
  deleteAssetToken,
  deleteAssetTokenV3,
  downloadAsset,
  downloadAssetV4,
  downloadAssetV3,
  deleteAssetRoute,
  deleteAssetV4,
  deleteAssetV3,
  legacyDownload,
  legacyConversationDownload,
  legacyOtrDownload,
  ...principalAssetEndpoints,
];

/** The federation API: remote users download this backend's assets through their own backend. */
export const cargoholdInternal: Endpoint[] = [getAsset, streamAsset];
