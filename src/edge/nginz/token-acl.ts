// What each kind of token reaches (wire's zauth.acl): a legal hold device's only what it needs,
// a provider's only /provider, a bot's only the bot API, and users' neither of those two.

const LEGALHOLD_REACHES = [
  /^\/notifications(\/|$)/,
  /^\/await$/,
  /^\/assets\//,
  /^\/users(\/|$)/,
  /^\/conversations\/[^/]+(\/[^/]+)?$/,
  /^\/legalhold\/conversations\/[^/]+$/,
];
const PROVIDER_PATHS = /^\/provider(\/|$)/;
/** The bot API; `/bot/conversations/…` (adding and removing bots) is the users'. */
const BOT_PATHS = /^\/bot\/(self$|client(\/|$)|users(\/|$)|assets(\/|$)|conversation$|messages$)/;

export type Caller = { kind: 'user'; legalhold: boolean } | { kind: 'provider' } | { kind: 'bot' };

/** Whether a token of this kind may reach the path. */
export function tokenReaches(caller: Caller, path: string): boolean {
  if (caller.kind === 'provider') return PROVIDER_PATHS.test(path);
  if (caller.kind === 'bot') return BOT_PATHS.test(path);
  if (PROVIDER_PATHS.test(path) || BOT_PATHS.test(path)) return false;
  return !caller.legalhold || LEGALHOLD_REACHES.some((r) => r.test(path));
}
