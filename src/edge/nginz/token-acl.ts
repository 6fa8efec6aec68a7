// What each kind of token reaches (wire's zauth.acl): a legal hold device's only what it needs,
// a provider's only /provider, and users' not /provider.

const LEGALHOLD_REACHES = [
  /^\/notifications(\/|$)/,
  /^\/await$/,
  /^\/assets\//,
  /^\/users(\/|$)/,
  /^\/conversations\/[^/]+(\/[^/]+)?$/,
];
const PROVIDER_PATHS = /^\/provider(\/|$)/;

export type Caller = { kind: 'user'; legalhold: boolean } | { kind: 'provider' };

/** Whether a token of this kind may reach the path. */
export function tokenReaches(caller: Caller, path: string): boolean {
  if (caller.kind === 'provider') return PROVIDER_PATHS.test(path);
  if (PROVIDER_PATHS.test(path)) return false;
  return !caller.legalhold || LEGALHOLD_REACHES.some((r) => r.test(path));
}
