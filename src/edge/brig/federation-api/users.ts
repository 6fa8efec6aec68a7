import { federationRpc } from '../../federation/rpc.js';
import { database, replicaOf } from '../../db/client.js';
import { localDomainOf } from '../clients/user-clients.js';
import { federationWith } from '../federation/federating.js';
import { contactJson, findContacts } from '../search/contacts.js';
import { profileJson, type UserRow } from '../users/user-json.js';
import { userStore, visibleAccount } from '../users/user-store.js';
import { getUserByHandleRpc, getUsersByIdsRpc, searchUsersRpc } from './contract.js';
import { userByHandle } from '../users/user-names.js';
import { directoryOf } from '../../db/directory.js';

/** What a remote sees of a user: the public profile, never the email. */
const remoteView = (rows: Array<UserRow | undefined>, domain: string) =>
  rows.filter(visibleAccount).map((u) => profileJson(u, domain, { showEmail: false }));

/** A user by exact handle, for remotes whose search policy allows at least handle search. */
export const getUserByHandle = federationRpc(
  { ...getUserByHandleRpc, description: 'The user with this handle, or null' },
  async (c, handle, { origin }) => {
    const config = c.get('config');
    const db = database(c.env.DB);
    const remote = await federationWith(config, db, origin);
    if (remote === undefined || remote.search_policy === 'no_search') return null;
    const [profile] = remoteView([await userByHandle(c.env, handle.toLowerCase())], localDomainOf(c));
    return profile ?? null;
  },
);

export const getUsersByIds = federationRpc(
  { ...getUsersByIdsRpc, description: 'The profiles of those users this backend has' },
  async (c, ids) => remoteView(await userStore.byIds(replicaOf(c.env.DB), ids), localDomainOf(c)),
);

/** Search by a remote's user, as far as the remote's search policy goes (no team: only open teams). */
export const searchUsers = federationRpc(
  { ...searchUsersRpc, description: 'Contacts found, and the search policy applied' },
  async (c, { term, from, onlyInTeams }, { origin }) => {
    const config = c.get('config');
    const remote = await federationWith(config, database(c.env.DB), origin);
    // A remote restricted by team searches only when the searcher's team is one of them (wire).
    const restricted = remote?.restriction.tag === 'restrict_by_team' ? remote.restriction.value : undefined;
    const teamAllowed = restricted === undefined || (from != null && restricted.includes(from));
    const policy = teamAllowed ? (remote?.search_policy ?? 'no_search') : 'no_search';
    if (policy === 'no_search' || onlyInTeams?.length === 0) return { contacts: [], searchPolicy: policy };
    const searcher = { id: '', team: null, ownTeamOnly: false };
    const hits = (await findContacts(directoryOf(c.env).all, config, searcher, term, 15, policy)).filter(
      (h) => onlyInTeams == null || (h.team !== null && onlyInTeams.includes(h.team)),
    );
    return { contacts: hits.map((h) => contactJson(h, localDomainOf(c))), searchPolicy: policy };
  },
);
