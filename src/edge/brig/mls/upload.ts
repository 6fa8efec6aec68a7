import type { Context } from 'hono';
import { fromBase64, toBase64 } from '../../../shared/base64.js';
import { readKeyPackage, validateUpload } from '../../../shared/mls/key-package.js';
import { schemeOf } from '../../../shared/mls/suites.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { self } from '../../api/self.js';
import type { Db } from '../../db/client.js';
import { clientStore } from '../clients/client-store.js';
import type { KeyPackage } from '../../../shared/accounts/material.js';
import { deps } from '../../api/deps.js';

/**
 * The rows of an upload, each package checked as wire-server checks it (encoding, suite,
 * signatures, the credential naming this client, the lifetime, the client's registered key).
 * The first bad package refuses the whole upload, so nothing of it is stored.
 */
export async function checkedUpload(
  c: Context<AppEnv>,
  db: Db,
  client: string,
  packages: readonly string[],
): Promise<KeyPackage[]> {
  const me = self(c);
  const config = c.get('config');
  const domain = deps(c).domain;
  const registered = (await clientStore.get(db, me.user, client))?.mlsPublicKeys ?? {};
  const now = Math.floor(Date.now() / 1000);
  const rows: KeyPackage[] = [];
  for (const text of packages) {
    const bytes = fromBase64(text);
    if (bytes === undefined) throw new ApiError(commonErrors.badRequest, 'Key package is not base64');
    const read = await readKeyPackage(bytes);
    if (!read.ok) {
      if (read.reason === 'malformed') throw new ApiError(commonErrors.badRequest, read.message);
      const spec =
        read.reason === 'invalid-leaf-node-signature'
          ? mlsErrors.mlsInvalidLeafNodeSignature
          : mlsErrors.mlsProtocolError;
      throw new ApiError(spec, read.message);
    }
    const pkg = read.keyPackage;
    const key = registered[schemeOf(pkg.suite)];
    const valid = validateUpload(pkg, {
      user: me.user,
      client,
      domain,
      registeredKey: key === undefined ? undefined : fromBase64(key),
      maxLifetimeSeconds: config.brig.optSettings.setKeyPackageMaximumLifetime,
      now,
    });
    if (!valid.ok) throw new ApiError(mlsErrors.mlsProtocolError, valid.message);
    rows.push({
      ref: toBase64(pkg.ref),
      client,
      cipherSuite: pkg.suite,
      data: text,
      notAfter: pkg.lifetime.notAfter,
    });
  }
  return rows;
}
