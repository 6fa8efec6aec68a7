/** A qualified id as events carry it. */
export interface EventQid {
  id: string;
  domain: string;
}

/** Milliseconds ISO time, as conversation events carry it. */
export const eventTime = (ms = Date.now()) => new Date(ms).toISOString();

/**
 * A conversation event: the conversation, who caused it, when, and the type's data (`data` is the
 * last key: the Proteus fan-out relies on it to complete one serialised envelope per recipient).
 */
export function conversationEvent<T extends string>(
  type: T,
  conv: EventQid,
  from: EventQid,
  data: unknown,
  o: { team?: string | null; time?: string; subconv?: string | undefined } = {},
) {
  return {
    type,
    conversation: conv.id,
    qualified_conversation: { id: conv.id, domain: conv.domain },
    from: from.id,
    qualified_from: { id: from.id, domain: from.domain },
    time: o.time ?? eventTime(),
    via: 'user' as const,
    ...(o.team ? { team: o.team } : {}),
    ...(o.subconv === undefined ? {} : { subconv: o.subconv }),
    data,
  };
}
