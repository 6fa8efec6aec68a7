import { remoteUsersOf, userKey } from '../../shared/proteus/recipients.js';
import type { QualifiedRef } from '../../shared/proteus/types.js';
import type { ConversationDb } from '../db/conversation-db.js';
import { readConversationState } from './state-store.js';

export interface ConversationState {
  exists: boolean;
  protocol: string;
  team: string | null;
  /** `domain/user` → the user's client ids (remote users: none known here). */
  clients: Map<string, Set<string>>;
  /** The members on other backends, whose clients each message asks for. */
  remote: QualifiedRef[];
  /**
   * A local member has a legal hold device while another has not consented to legal hold:
   * nothing may be sent (wire's guard; consenting or the device going reloads the state).
   */
  legalholdConflict: boolean;
  /** The bot members (local users) by user id → their service. */
  bots: Map<string, { id: string; provider: string }>;
}

/** A conversation's members and their clients, as the object keeps them until told otherwise. */
export async function loadState(
  db: ConversationDb,
  directory: readonly D1Database[],
  conv: QualifiedRef,
  localDomain: string,
): Promise<ConversationState> {
  const { meta, members } = await readConversationState(db, directory, conv, localDomain);
  const clients = new Map<string, Set<string>>();
  let device = false;
  let unconsenting = false;
  const bots = new Map<string, { id: string; provider: string }>();
  for (const m of members) {
    if (m.serviceId !== null && m.serviceProvider !== null)
      bots.set(m.userId, { id: m.serviceId, provider: m.serviceProvider });
    if (m.userDomain === localDomain) {
      device ||= m.legalhold;
      unconsenting ||= !m.consent;
    }
    const key = userKey(m.userDomain, m.userId);
    let set = clients.get(key);
    if (set === undefined) clients.set(key, (set = new Set()));
    if (m.client !== null) set.add(m.client);
  }
  return {
    exists: meta !== undefined,
    protocol: meta?.protocol ?? 'proteus',
    team: meta?.team ?? null,
    clients,
    remote: remoteUsersOf(clients, localDomain),
    legalholdConflict: device && unconsenting,
    bots,
  };
}
