import { conversationListsEffect } from '../../shared/effects/conversation-lists-effect.js';
import type { QualifiedRef } from '../../shared/proteus/types.js';
import type { ConversationDb } from '../db/conversation-db.js';
import { copyIn } from './conversation-store.js';
import { copyGroupsIn } from './mls/group-store.js';
import type { MovedInStore } from './moved-in-store.js';
import type { EdgeEffectsStore } from './edge-effects-store.js';
import { legacyConversationStore } from './legacy-conversation-store.js';

/**
 * Moves the conversation's D1 rows in (one transaction with the mark and the word to its local
 * members' lists, at time 0 so that it never overrides a newer one), then deletes them from D1.
 * A crash in between leaves the mark pending: the next call only deletes them.
 */
export async function moveIn(
  c: {
    storage: DurableObjectStorage;
    db: ConversationDb;
    d1: D1Database;
    moved: MovedInStore;
    edgeEffects: EdgeEffectsStore;
  },
  conv: QualifiedRef,
): Promise<void> {
  const state = c.moved.state();
  if (state === 'done') return;
  const legacy = await legacyConversationStore.of(c.d1, conv);
  const groups = [legacy.row?.groupId, ...legacy.subconversations.map((s) => s.groupId)].filter(
    (g): g is string => g != null,
  );
  if (state === 'no') {
    const writes = [...copyIn(c.db, legacy), ...copyGroupsIn(c.db, legacy)];
    const found = legacy.row !== undefined || legacy.members.length > 0;
    const members = legacy.members.map((m) => ({ id: m.userId, domain: m.userDomain }));
    const told = conversationListsEffect(conv, members, [], 0);
    let recorded: number | undefined;
    c.storage.transactionSync(() => {
      for (const w of writes) w.run();
      if (told.length > 0) recorded = c.edgeEffects.record(told);
      c.moved.mark(conv, found);
    });
    if (recorded !== undefined) await c.edgeEffects.handOver(c.d1, recorded);
    if (!found) return;
  }
  await legacyConversationStore.forget(c.d1, conv, groups);
  c.moved.mark(conv, false);
}
