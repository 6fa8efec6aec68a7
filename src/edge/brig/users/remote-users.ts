// Users of other backends, asked of their own brig through federation.
import type { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import { FederatorClient } from '../../federation/client.js';
import { federationWith } from '../federation/federating.js';
import type { UserProfile } from './user-json.js';
import { getUserByHandleRpc, getUsersByIdsRpc, searchUsersRpc } from '../federation-api/contract.js';

/** The profiles `domain` has of these users (those it does not have are left out). */
export function remoteProfiles(config: Config, domain: string, ids: readonly string[]): Promise<UserProfile[]> {
  return FederatorClient.of(config).call(domain, getUsersByIdsRpc, ids);
}

export function remoteUserByHandle(config: Config, domain: string, handle: string): Promise<UserProfile | null> {
  return FederatorClient.of(config).call(domain, getUserByHandleRpc, handle);
}

/**
 * What a search on `domain` finds for a user of this backend (of `team`), and the policy it
 * applied. A remote this backend restricts by team shows users of those teams only (none when it
 * does not federate with it), as wire's SearchRequest says.
 */
export async function remoteSearch(
  config: Config,
  db: Db,
  domain: string,
  term: string,
  team: string | null,
): Promise<z.output<typeof searchUsersRpc.response>> {
  const remote = await federationWith(config, db, domain);
  const onlyInTeams =
    remote === undefined ? [] : remote.restriction.tag === 'restrict_by_team' ? remote.restriction.value : undefined;
  const request = { term, from: team, ...(onlyInTeams === undefined ? {} : { onlyInTeams }) };
  return FederatorClient.of(config).call(domain, searchUsersRpc, request);
}
