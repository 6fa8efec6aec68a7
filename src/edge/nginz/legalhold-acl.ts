// What a legal hold device's access token reaches (zauth.acl's `la` entry): its notifications,
// assets, users, and conversations, to read what it records. Nothing else.
const REACHABLE = [
  /^\/notifications(\/|$)/,
  /^\/await$/,
  /^\/assets\//,
  /^\/users(\/|$)/,
  /^\/conversations\/[^/]+(\/[^/]+)?$/,
  /^\/legalhold\/conversations\/[^/]+$/,
];

export const legalholdMayReach = (path: string): boolean => REACHABLE.some((r) => r.test(path));
