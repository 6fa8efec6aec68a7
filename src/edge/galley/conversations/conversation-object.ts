import { type Config, localDomain } from '../../../shared/config/index.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { conversationBook } from './conversation-book.js';
import { conversationObject } from './conversation-stub.js';
import { queueClientRemoved, queueRemovals } from '../federation/mls-deliveries.js';
import { defineEffect } from '../../effects/effect.js';
import { askEach } from '../../../shared/chunked.js';
import { heldEffectsStore } from '../../../shared/effects/held-effects-store.js';

export { conversationObject } from './conversation-stub.js';

/** What the object needs to tell members: which users are this backend's, and how long events live. */
export const objectDelivery = (config: Config) => ({
  localDomain: localDomain(config),
  ttlSeconds: config.gundeck.settings.notificationTTL,
});

/** Who left, for the backend's MLS removal proposals (see Leaving). */
export interface Left {
  config: Config;
  /** Users (all their clients), or one client of a user. */
  targets: Array<{ id: string; domain: string; client?: string }>;
}

/**
 * Membership changed: the conversation's object reads its members again; users or clients that
 * `left` are proposed for removal from its MLS group (clients of other backends get the proposals
 * through theirs).
 */
export async function membershipChanged(env: Env, conv: QualifiedId, left?: Left): Promise<void> {
  const leaving =
    left === undefined
      ? undefined
      : {
          conv: { id: conv.id, domain: conv.domain },
          targets: left.targets.map((t) => ({ user: t.id, domain: t.domain, client: t.client })),
          ...objectDelivery(left.config),
        };
  const removals = await conversationObject(env, conv).invalidate({ id: conv.id, domain: conv.domain }, leaving);
  if (left !== undefined && removals.length > 0) await queueRemovals(env, left.config, conv, removals);
}

const membershipChange = defineEffect(
  'membership-changed',
  ({ env, config }, a: { conv: QualifiedId; targets?: Left['targets'] | undefined }) =>
    membershipChanged(env, a.conv, a.targets === undefined ? undefined : { config, targets: a.targets }),
);

/** membershipChanged as an effect of a change (see commitChange). */
export const membershipChangedEffect = (conv: QualifiedId, targets?: Left['targets']) =>
  membershipChange({ conv: { id: conv.id, domain: conv.domain }, targets });

/**
 * A user's clients changed: every conversation of theirs reads members and clients again (`left`:
 * deleted ones); the owners of the user's conversations on other backends hear of deleted clients.
 */
async function clientsChanged(env: Env, user: QualifiedId, left?: Left): Promise<void> {
  const local = left === undefined ? undefined : localDomain(left.config);
  const remote: QualifiedId[] = [];
  let after: QualifiedId | undefined;
  for (;;) {
    const page = await conversationBook.idsOf(env, user, 500, after);
    await Promise.all(page.map((conv) => membershipChanged(env, conv, left)));
    remote.push(...page.filter((conv) => local !== undefined && conv.domain !== local));
    if (page.length < 500) break;
    after = page.at(-1);
  }
  for (const t of left?.targets ?? [])
    if (t.client !== undefined && t.domain === local) await queueClientRemoved(env, t.id, t.client, remote);
}

const clientsChange = defineEffect(
  'clients-changed',
  ({ env, config }, a: { user: QualifiedId; targets?: Left['targets'] | undefined }) =>
    clientsChanged(env, a.user, a.targets === undefined ? undefined : { config, targets: a.targets }),
);

/** clientsChanged as an effect of a change (see commitChange); `gone`: the deleted clients. */
export const clientsChangedEffect = (user: QualifiedId, gone: readonly string[] = []) =>
  clientsChange({
    user: { id: user.id, domain: user.domain },
    targets: gone.length === 0 ? undefined : gone.map((client) => ({ id: user.id, domain: user.domain, client })),
  });

/** Conversations woken per round of the sweep. */
const WAKE_BATCH = 100;

/**
 * Wakes the objects of conversations marked before `before` (ms) as holding effects for the edge
 * (a crash between a commit and their hand-over), so that they are in pending_effects when the
 * sweep carries those out. Returns how many were woken.
 */
export async function wakeHeldConversations(env: Env, before: number): Promise<number> {
  let woken = 0;
  for (;;) {
    const held = await heldEffectsStore.older(env.DB, before, WAKE_BATCH);
    await askEach(held, (c) => conversationObject(env, c).handOverEffects(c));
    woken += held.length;
    if (held.length < WAKE_BATCH) return woken;
  }
}
