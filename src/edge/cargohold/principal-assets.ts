// Assets of bots and service providers (`/bot/assets`, `/provider/assets`): the same v3 upload,
// download and delete as users', owned by the bot or the provider. Neither has an account status
// or a team, so the limit is `maxTotalBytes` and there is no other check.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { endpoint } from '../api/endpoint.js';
import { bot, provider } from '../api/self.js';
import { assetJson } from './asset-json.js';
import { assetKeySchema } from './asset-key.js';
import { localDownload, requestedToken, tokenHeader, tokenQuery } from './download.js';
import { ownerErrors, removeOwnAsset } from './manage.js';
import { acceptUpload, uploadRoute } from './upload.js';
import { cargoholdErrors } from '../api/errors/cargohold.js';

type Principal = 'bot' | 'provider';

/** Who owns the asset: a bot is a user (its id); a provider's id is marked apart from users'. */
const ownerOf = (c: Context<AppEnv>, p: Principal) => (p === 'bot' ? bot(c).bot : `provider:${provider(c)}`);

const keyParams = z.object({ key: assetKeySchema });

function routesOf(p: Principal) {
  const base = `/${p}/assets`;
  const upload = endpoint(
    { name: `assets-upload-v3_${p}`, path: base, auth: p, ...uploadRoute },
    async (c: Context<AppEnv>) => {
      const config = c.get('config');
      const row = await acceptUpload(c, ownerOf(c, p), config.cargohold.settings.maxTotalBytes);
      const domain = config.cargohold.settings.federationDomain;
      return c.json(assetJson(row, domain), 201, { location: `${base}/${row.key}` });
    },
  );
  const download = endpoint(
    {
      name: `assets-download-v3_${p}`,
      method: 'get',
      path: `${base}/{key}`,
      auth: p,
      request: { params: keyParams, query: tokenQuery, headers: tokenHeader },
      errors: [cargoholdErrors.assetNotFound],
      responses: { 302: { description: 'Redirect to a presigned download URL, valid `downloadLinkTTL` seconds' } },
    },
    (c) => {
      return localDownload(c, c.req.valid('param').key, requestedToken(c), ownerOf(c, p));
    },
  );
  const remove = endpoint(
    {
      name: `assets-delete-v3_${p}`,
      method: 'delete',
      path: `${base}/{key}`,
      auth: p,
      request: { params: keyParams },
      errors: ownerErrors,
      responses: { 200: { description: 'Asset deleted' } },
    },
    (c) => removeOwnAsset(c, c.req.valid('param').key, ownerOf(c, p)),
  );
  return [upload, download, remove];
}

export const principalAssetEndpoints = [...routesOf('bot'), ...routesOf('provider')];
