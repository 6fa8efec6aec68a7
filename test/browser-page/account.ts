/** The account screens: sign-up, consent, the username, login, logout, and the token renewed through the cookie. */
import type { QualifiedId } from '@wireapp/api-client/lib/user/index.js';
import type { PageContext } from './context.js';

/** The sign-up form's "send code" step: `POST /activate/send`. */
export async function requestCode(ctx: PageContext, email: string): Promise<void> {
  await ctx.api.api.user.postActivationCode({ email, locale: 'en-US' } as never);
}

/** The sign-up form sent, with the mailed code: the web app's exact body, nulls included. */
export async function signUp(
  ctx: PageContext,
  form: { name: string; email: string; password: string; code: string },
): Promise<QualifiedId> {
  const body = {
    accent_id: 1,
    assets: null,
    email: form.email,
    email_code: form.code,
    invitation_code: null,
    label: null,
    locale: 'en-US',
    name: form.name,
    password: form.password,
    team: null,
    termsAccepted: true,
  };
  const context = await ctx.api.register(body as never);
  ctx.self = { id: context.userId, domain: context.domain ?? '' };
  return ctx.self;
}

/** The marketing consent dialog, answered: `PUT /self/consent`, then `GET /self/consent`. */
export async function consent(ctx: PageContext): Promise<unknown> {
  await ctx.api.api.self.putConsent({ type: 2, value: 1, source: 'Webapp 2026.11' } as never);
  return ctx.api.api.self.getConsents();
}

/**
 * The username step: the suggestion checked, then taken (`PUT /self/handle`). The check is
 * `POST /handles` from v7 on (wire-server's check-user-handles), where the web app's api-client
 * (27.9x) sends it; 27.0.0 still posts to v6's `/users/handles`.
 */
export async function setHandle(ctx: PageContext, handle: string): Promise<string | undefined> {
  const check = { method: 'post', url: '/handles', data: { handles: [handle], return: 1 } };
  const free = (await ctx.api.transport.http.sendJSON<string[]>(check)).data;
  if (!free.includes(handle)) throw new Error(`handle ${handle} is taken`);
  await ctx.api.api.self.putHandle({ handle });
  return (await ctx.api.api.self.getSelf()).handle;
}

export async function logout(ctx: PageContext): Promise<void> {
  await ctx.api.logout();
}

/** The login form: `POST /login?persist=true` (the cookie lands in this profile's jar). */
export async function login(ctx: PageContext, email: string, password: string): Promise<QualifiedId> {
  const context = await ctx.api.login({ email, password, clientType: 'permanent' } as never);
  ctx.self = { id: context.userId, domain: context.domain ?? '' };
  return ctx.self;
}

/** A new access token through the cookie (`POST /access`, with the old token), as on expiry. */
export async function refresh(ctx: PageContext): Promise<{ expires_in: number; same_user: boolean }> {
  const token = await ctx.api.transport.http.refreshAccessToken();
  return { expires_in: token.expires_in, same_user: token.user === ctx.me.id };
}
