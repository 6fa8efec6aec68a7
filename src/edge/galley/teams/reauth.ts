import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { selfQualified } from '../../api/self.js';
import { checkUserPassword, userById } from '../../brig/face.js';
import type { Db } from '../../db/client.js';

/** Destructive team operations need the caller's password again (users without one are SSO users). */
export async function requireReauth(c: Context<AppEnv>, db: Db, password: string | undefined): Promise<void> {
  const me = await userById(db, selfQualified(c));
  if (me === undefined || me.password === null) return;
  if (password === undefined || !(await checkUserPassword(c.env, db, c.get('config'), { user: me.id }, me, password)))
    throw new ApiError(galleyErrors.reauthRequired);
}
