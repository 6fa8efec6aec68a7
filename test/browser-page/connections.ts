/** Connection requests and their acceptance, and a conversation as the page reads it. */
import type { QualifiedId } from '@wireapp/api-client/lib/user/index.js';
import type { PageContext } from './context.js';

export function connect(ctx: PageContext, to: QualifiedId): Promise<unknown> {
  return ctx.api.api.connection.postConnection(to);
}

export function accept(ctx: PageContext, from: QualifiedId): Promise<unknown> {
  return ctx.api.api.connection.putConnection(from, { status: 'accepted' } as never);
}

export async function conversation(
  ctx: PageContext,
  id: QualifiedId,
): Promise<{ type: number; protocol?: string; others: string[] }> {
  const c = (await ctx.api.api.conversation.getConversation(id)) as unknown as {
    type: number;
    protocol?: string;
    members: { others: Array<{ qualified_id: QualifiedId }> };
  };
  return { type: c.type, protocol: c.protocol, others: c.members.others.map((o) => o.qualified_id.id) };
}
