import type { Deps } from '../../api/deps.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';

/** Destructive team operations need the caller's password again (users without one are SSO users). */
export async function requireReauth(d: Deps, user: string, password: string | undefined): Promise<void> {
  const me = await d.users.account({ id: user, domain: d.domain });
  if (me === undefined || !me.hasPassword) return;
  if (password === undefined || !(await d.users.checkPassword(user, password)))
    throw new ApiError(galleyErrors.reauthRequired);
}
