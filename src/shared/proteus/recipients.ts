import type { MismatchStrategy, OtrRecipient } from '../codecs/otr.js';
import type { ClientMap, MessageSendingStatus, QualifiedRef, RemoteClients } from './types.js';

/** The key of a user in a client table: `domain/user`. */
export const userKey = (domain: string, user: string) => `${domain}/${user}`;

/** Who may receive a message: `domain/user` (see userKey) → the user's client ids. */
export type ClientTable = ReadonlyMap<string, ReadonlySet<string>>;

export interface Classified {
  /** What the strategy reports as missing; non-empty means 412 and nothing sent. */
  missing: ClientMap;
  redundant: ClientMap;
  deleted: ClientMap;
  /** The recipients that get the message: expected and provided. */
  deliver: OtrRecipient[];
}

function add(map: ClientMap, domain: string, user: string, client: string): void {
  ((map[domain] ??= {})[user] ??= []).push(client);
}

/** Client ids sorted by numeric value, as wire-server lists them. */
function sortMap(map: ClientMap): ClientMap {
  for (const users of Object.values(map))
    for (const [user, clients] of Object.entries(users))
      users[user] = clients.sort((a, b) => (BigInt(`0x${a}`) < BigInt(`0x${b}`) ? -1 : 1));
  return map;
}

function selected(strategy: MismatchStrategy, domain: string, user: string): boolean {
  const listed = (users: QualifiedRef[]) => users.some((u) => u.id === user && u.domain === domain);
  switch (strategy.kind) {
    case 'report_all':
      return true;
    case 'ignore_all':
      return false;
    case 'report_only':
      return listed(strategy.users);
    case 'ignore_only':
      return !listed(strategy.users);
  }
}

/**
 * Expected = every client of every member except the sending client. Missing = expected not
 * provided (as far as the strategy asks); provided but not expected is `deleted` when the user is
 * a member, else `redundant` (the sending client itself included).
 */
export function classify(
  expected: ClientTable,
  sender: QualifiedRef & { client: string },
  provided: readonly OtrRecipient[],
  strategy: MismatchStrategy,
): Classified {
  const out: Classified = { missing: {}, redundant: {}, deleted: {}, deliver: [] };
  const senderKey = userKey(sender.domain, sender.id);
  // What was provided, by user: one key per recipient, no per-client strings.
  const given = new Map<string, Set<string>>();
  for (const r of provided) {
    const key = userKey(r.domain, r.user);
    const clients = given.get(key);
    if (clients === undefined) given.set(key, new Set([r.client]));
    else clients.add(r.client);
    const isSender = key === senderKey && r.client === sender.client;
    const isExpected = !isSender && expected.get(key)?.has(r.client) === true;
    if (isExpected) out.deliver.push(r);
    else add(expected.has(key) && !isSender ? out.deleted : out.redundant, r.domain, r.user, r.client);
  }
  for (const [key, clients] of expected) {
    const got = given.get(key);
    for (const client of clients) {
      if (got?.has(client) === true || (key === senderKey && client === sender.client)) continue;
      const [domain, user] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
      if (selected(strategy, domain, user)) add(out.missing, domain, user, client);
    }
  }
  sortMap(out.missing);
  sortMap(out.redundant);
  sortMap(out.deleted);
  return out;
}

/** The status a send answers with: what `classify` found, at the message's time. */
export function sendingStatus(c: Classified, time: string): MessageSendingStatus {
  return {
    time,
    missing: c.missing,
    redundant: c.redundant,
    deleted: c.deleted,
    failed_to_send: {},
    failed_to_confirm_clients: {},
  };
}

/** The members of a client table that are not on this backend. */
export function remoteUsersOf(table: ClientTable, localDomain: string): QualifiedRef[] {
  const out: QualifiedRef[] = [];
  for (const key of table.keys()) {
    const at = key.indexOf('/');
    if (key.slice(0, at) !== localDomain) out.push({ domain: key.slice(0, at), id: key.slice(at + 1) });
  }
  return out;
}

/**
 * One message's view of a conversation with remote members: their clients as their backends
 * listed them, and the ciphertexts for users whose backend could not be asked, which are sent on
 * unchecked and reported as `failed_to_confirm_clients`.
 */
export function withRemoteClients(
  table: ClientTable,
  remote: RemoteClients,
  provided: readonly OtrRecipient[],
): { table: ClientTable; checked: OtrRecipient[]; unconfirmed: OtrRecipient[]; failedToConfirm: ClientMap } {
  const merged = new Map(table);
  for (const [key, clients] of Object.entries(remote.clients)) if (merged.has(key)) merged.set(key, new Set(clients));
  const unsure = new Set(remote.unconfirmed);
  const checked: OtrRecipient[] = [];
  const unconfirmed: OtrRecipient[] = [];
  const failedToConfirm: ClientMap = {};
  for (const r of provided) {
    if (!unsure.has(userKey(r.domain, r.user))) checked.push(r);
    else if (merged.has(userKey(r.domain, r.user))) {
      unconfirmed.push(r);
      add(failedToConfirm, r.domain, r.user, r.client);
    }
  }
  for (const key of unsure) merged.delete(key);
  return { table: merged, checked, unconfirmed, failedToConfirm: sortMap(failedToConfirm) };
}
