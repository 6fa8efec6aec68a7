import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { serverFeatureStatus, teamById } from '../../galley/face.js';
import { userStore } from '../users/user-store.js';
import { searchStore, matchExpression, type SearchHit, type Searcher } from './search-store.js';

const contact = z
  .object({
    id: z.uuid(),
    qualified_id: z.object({ id: z.uuid(), domain: z.string() }),
    name: z.string(),
    handle: z.string().optional(),
    accent_id: z.int().optional(),
    team: z.uuid().optional(),
  })
  .openapi('Contact');

const searchResult = z
  .object({
    documents: z.array(contact),
    found: z.int(),
    returned: z.int(),
    took: z.int(),
    search_policy: z.enum(['no_search', 'exact_handle_search', 'full_search']),
    has_more: z.boolean().optional(),
  })
  .openapi('SearchResult');

/**
 * `GET /search/contacts`: local users by exact handle (always first, found by any user unless the
 * searcher's team hides outsiders) and by prefixes of name and handle words, through the FTS5
 * index (migrations/0009_search.sql). Users of other teams appear only when their team is
 * searchable by all teams (searchVisibilityInbound); non-searchable users only by exact handle.
 */
export const searchContacts = endpoint(
  {
    name: 'search-contacts',
    method: 'get',
    path: '/search/contacts',
    request: {
      query: z.object({
        q: z.string(),
        domain: z.string().optional(),
        size: z.coerce.number().int().min(1).max(500).optional(),
      }),
    },
    responses: { 200: { description: 'Contacts found', ...json(searchResult) } },
  },
  async (c) => {
    const started = Date.now();
    const { q, size = 15, domain: wanted } = c.req.valid('query');
    const config = c.get('config');
    const domain = config.brig.optSettings.setFederationDomain;
    const empty = { documents: [], found: 0, returned: 0, took: 0, search_policy: 'full_search' as const };
    // Remote domains are searched through federation, which does not exist yet: nothing found there.
    if (wanted !== undefined && wanted !== domain) return c.json(empty, 200);
    const db = database(c.env.DB);
    const me = await userStore.byId(db, self(c).user);
    const team = me?.team ?? null;
    const ownTeamOnly = team !== null && (await teamById(db, team))?.searchVisibility === 'no-name-outside-team';
    const searcher: Searcher = { id: self(c).user, team, ownTeamOnly };

    const term = q.trim().replace(/^@/, '').toLowerCase();
    const hits: SearchHit[] = [];
    const exact = term === '' ? undefined : await searchStore.byHandle(c.env.DB, searcher, term);
    if (exact !== undefined) hits.push(exact);
    const match = matchExpression(term);
    if (match !== undefined) {
      const inbound = serverFeatureStatus(config, 'searchVisibilityInbound');
      for (const h of await searchStore.byPrefix(c.env.DB, searcher, match, inbound, size + 1))
        if (h.id !== exact?.id) hits.push(h);
    }
    const documents = hits.slice(0, size).map((h) => ({
      id: h.id,
      qualified_id: { id: h.id, domain },
      name: h.name,
      ...(h.handle === null ? {} : { handle: h.handle }),
      accent_id: h.accent_id,
      ...(h.team === null ? {} : { team: h.team }),
    }));
    return c.json(
      {
        documents,
        found: documents.length,
        returned: documents.length,
        took: Date.now() - started,
        search_policy: 'full_search' as const,
        has_more: hits.length > size,
      },
      200,
    );
  },
);

/** `GET /i/index/refresh`: the index is updated with every write (triggers), so it is always fresh. */
export const refreshIndex = endpoint(
  {
    name: 'refresh-index',
    method: 'get',
    path: '/i/index/refresh',
    responses: { 200: { description: 'The search index is up to date' } },
  },
  (c) => c.body(null, 200),
);
