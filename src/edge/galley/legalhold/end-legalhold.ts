import type { Deps } from '../../api/deps.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import { legalholdStore, type LegalholdService } from './legalhold-store.js';
import { remove } from './service-client.js';

/**
 * Ends a member's legal hold (pending or enabled): the service hears it first (412 when it cannot,
 * and nothing changes here), then, as one change, the device goes, the connections legal hold
 * blocked are back, and the member is back to `disabled`.
 */
export async function endLegalhold(
  d: Deps,
  o: { team: string; user: string; service: LegalholdService | undefined },
): Promise<void> {
  const { env, config, db, domain } = d;
  if (o.service !== undefined) await remove(config, o.service, { id: o.user, domain }, o.team);
  const disabled = {
    statements: [
      legalholdStore.setStatus(db, o.team, o.user, 'disabled'),
      legalholdStore.dropPendingPrekeys(db, o.user),
    ],
    effects: [],
  };
  await commitChange(
    env,
    config,
    joinChanges(
      disabled,
      await d.users.removingLegalholdDevices({ user: o.user, team: o.team }),
      await d.users.unblockingInvolving(o.user),
    ),
  );
}

/** Ends legal hold for every member under it (the team's service or feature goes away). */
export async function endTeamLegalhold(d: Deps, team: string): Promise<void> {
  const service = await legalholdStore.service(d.db, team);
  for (const user of await legalholdStore.membersWith(d.db, team, ['enabled', 'pending']))
    await endLegalhold(d, { team, user, service });
}
