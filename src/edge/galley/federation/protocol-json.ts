// wire's Protocol as the federation API carries it: a conversation's protocol and, for MLS, its
// group and epoch (with the epoch's time and cipher suite once the group has its first commit).
import { z } from '@hono/zod-openapi';
import type { ConversationRow } from '../conversations/conversation-store.js';

export const protocolSchema = z
  .object({
    protocol: z.enum(['proteus', 'mls', 'mixed']),
    group_id: z.string().nullish(),
    epoch: z.int().min(0).nullish(),
    epoch_timestamp: z.string().nullish(),
    cipher_suite: z.int().nullish(),
  })
  .loose();

export function protocolJson(conv: ConversationRow): z.input<typeof protocolSchema> {
  if (conv.protocol === 'proteus') return { protocol: conv.protocol };
  const active = conv.epochTimestamp !== null && conv.cipherSuite !== null;
  return {
    protocol: conv.protocol,
    group_id: conv.groupId,
    epoch: conv.epoch,
    ...(active
      ? { epoch_timestamp: new Date(conv.epochTimestamp!).toISOString(), cipher_suite: conv.cipherSuite }
      : {}),
  };
}

/** The columns of a conversation's copy that its protocol sets. */
export function protocolColumns(p: z.output<typeof protocolSchema>) {
  const since = p.epoch_timestamp == null ? Number.NaN : Date.parse(p.epoch_timestamp);
  return {
    protocol: p.protocol,
    groupId: p.group_id ?? null,
    epoch: p.epoch ?? 0,
    cipherSuite: p.cipher_suite ?? null,
    epochTimestamp: Number.isNaN(since) ? null : since,
  } satisfies Partial<ConversationRow>;
}
