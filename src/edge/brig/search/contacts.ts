import { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import { serverFeatureStatus } from '../../galley/face.js';
import { matchExpression, searchStore, type SearchHit, type Searcher } from './search-store.js';

export const contact = z
  .object({
    id: z.uuid(),
    qualified_id: z.object({ id: z.uuid(), domain: z.string() }),
    name: z.string(),
    handle: z.string().optional(),
    accent_id: z.int().optional(),
    team: z.uuid().optional(),
  })
  .openapi('Contact');

export type Contact = z.infer<typeof contact>;

export function contactJson(h: SearchHit, domain: string): Contact {
  return {
    id: h.id,
    qualified_id: { id: h.id, domain },
    name: h.name,
    ...(h.handle === null ? {} : { handle: h.handle }),
    accent_id: h.accent_id,
    ...(h.team === null ? {} : { team: h.team }),
  };
}

/**
 * Local users a search finds, at most `limit`: the exact handle first, then (`full_search`) name
 * and handle prefixes through the FTS5 index. `exact_handle_search` finds the handle alone.
 */
export async function findContacts(
  directory: readonly D1Database[],
  config: Config,
  searcher: Searcher,
  q: string,
  limit: number,
  policy: 'exact_handle_search' | 'full_search',
): Promise<SearchHit[]> {
  const term = q.trim().replace(/^@/, '').toLowerCase();
  const hits: SearchHit[] = [];
  // Other users' rows, in every partition of the directory: a replica may serve them (see replicaOf).
  const sessions = directory.map((d1) => d1.withSession('first-unconstrained'));
  const exact =
    term === ''
      ? undefined
      : (await Promise.all(sessions.map((db) => searchStore.byHandle(db, searcher, term)))).find(
          (h) => h !== undefined,
        );
  if (exact !== undefined) hits.push(exact);
  const match = policy === 'full_search' ? matchExpression(term) : undefined;
  if (match !== undefined) {
    const inbound = serverFeatureStatus(config, 'searchVisibilityInbound');
    const found = await Promise.all(sessions.map((db) => searchStore.byPrefix(db, searcher, match, inbound, limit)));
    // Each partition ranks its own (bm25 over its own rows): close enough to merge by.
    for (const h of found.flat().sort((a, b) => a.rank - b.rank)) if (h.id !== exact?.id) hits.push(h);
  }
  return hits.slice(0, limit);
}
