import type { Relation } from '../../../shared/db/schema.js';

/**
 * Connections with users of other backends: each backend keeps its own user's side, and the two
 * tell each other what their user did (`send-connection-action`). The transitions are wire's.
 */
export type LocalAction = 'connect' | 'block' | 'ignore' | 'rescind';
export type RemoteAction = 'RemoteConnect' | 'RemoteRescind';

/** The new status of the local side after an action, undefined when the action changes nothing. */
export function transition(action: LocalAction | RemoteAction, from: Relation): Relation | undefined {
  const rel = from === 'missing-legalhold-consent' ? 'blocked' : from;
  switch (action) {
    case 'connect':
      return rel === 'pending' || rel === 'accepted' ? 'accepted' : 'sent';
    case 'block':
      return rel === 'blocked' ? undefined : 'blocked';
    case 'ignore':
      return rel === 'pending' ? 'ignored' : undefined;
    case 'rescind':
      return rel === 'sent' ? 'cancelled' : rel === 'accepted' ? 'pending' : undefined;
    case 'RemoteConnect':
      if (rel === 'blocked') return undefined;
      return rel === 'sent' || rel === 'accepted' ? 'accepted' : 'pending';
    case 'RemoteRescind':
      return rel === 'pending' ? 'cancelled' : rel === 'accepted' ? 'sent' : undefined;
  }
}

/** What the other backend is told of a local action (block and ignore stay private). */
export const remoteActionOf = (a: LocalAction): RemoteAction | undefined =>
  a === 'connect' ? 'RemoteConnect' : a === 'rescind' ? 'RemoteRescind' : undefined;

/** The local action a `PUT /connections` status asks for; undefined for statuses one cannot ask for. */
export function actionFor(wanted: Relation): LocalAction | undefined {
  switch (wanted) {
    case 'cancelled':
      return 'rescind';
    case 'sent':
    case 'accepted':
      return 'connect';
    case 'blocked':
      return 'block';
    case 'ignored':
      return 'ignore';
    default:
      return undefined;
  }
}

/** The local side's answer to a remote action: it wants the connection too when it sent or accepted. */
export const reactionTo = (rel: Relation | undefined): RemoteAction | undefined =>
  rel === 'accepted' || rel === 'sent' ? 'RemoteConnect' : undefined;
