import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { hasHiddenPerm } from '../../api/team-permissions.js';
import { remoteSearch } from '../users/remote-users.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database, type Db } from '../../db/client.js';
import { roleInTeam, teamById } from '../../galley/face.js';
import type { UserRow } from '../users/user-json.js';
import { userStore } from '../users/user-store.js';
import { contact, contactJson, findContacts } from './contacts.js';
import type { Searcher } from './search-store.js';
import { deps } from '../../api/deps.js';
import { directoryOf } from '../../db/directory.js';

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
 * Who may search (wire-server's `searchUsersImpl`): an active account, so not an ephemeral user,
 * and in a team only with its SearchContacts permission, so not an external partner (403
 * `insufficient-permissions`).
 */
async function searcherRow(db: Db, id: string): Promise<UserRow> {
  const me = await userStore.byId(db, id);
  if (me === undefined || me.status !== 'active') throw new ApiError(brigErrors.insufficientPermissions);
  if (me.team !== null) {
    const role = await roleInTeam(db, me.team, me.id);
    if (role === undefined || !hasHiddenPerm(role, 'SearchContacts'))
      throw new ApiError(brigErrors.insufficientPermissions);
  }
  return me;
}

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
    errors: [brigErrors.insufficientPermissions, ...FEDERATED_CALL_ERRORS],
    responses: { 200: { description: 'Contacts found', ...json(searchResult) } },
  },
  async (c) => {
    const started = Date.now();
    const { q, size = 15, domain: wanted } = c.req.valid('query');
    const config = c.get('config');
    const domain = deps(c).domain;
    const db = database(c.env.DB);
    const me = await searcherRow(db, self(c).user);
    if (wanted !== undefined && wanted !== domain) {
      // Another backend's users: it searches them, as far as its policy for this backend allows.
      const db = database(c.env.DB);
      const team = (await userStore.byId(db, self(c).user))?.team ?? null;
      const { contacts, searchPolicy } = await remoteSearch(config, db, wanted, q, team);
      const documents = contacts.slice(0, size);
      return c.json(
        {
          documents,
          found: contacts.length,
          returned: documents.length,
          took: Date.now() - started,
          search_policy: searchPolicy,
          has_more: contacts.length > size,
        },
        200,
      );
    }
    const team = me.team;
    const ownTeamOnly = team !== null && (await teamById(db, team))?.searchVisibility === 'no-name-outside-team';
    const searcher: Searcher = { id: me.id, team, ownTeamOnly };

    const hits = await findContacts(directoryOf(c.env).all, config, searcher, q, size + 1, 'full_search');
    const documents = hits.slice(0, size).map((h) => contactJson(h, domain));
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
