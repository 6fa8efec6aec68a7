import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { withoutAbsentNulls } from '../../api/null-as-absent.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { Db } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { featureConfigUpdate } from '../../events/feature-events.js';
import { publishEffect } from '../../events/publish.js';
import { endTeamLegalhold } from '../legalhold/end-legalhold.js';
import { teamStore } from '../teams/team-store.js';
import { featureDef, type FeatureName, type FeatureStatus, type LockableFeature, type LockStatus } from './registry.js';
import { checkChange } from './rules.js';
import { featureStore } from './feature-store.js';
import { teamFeature, teamFeatureAfter } from './team-features.js';
import { deps } from '../../api/deps.js';

export interface FeaturePatch {
  status?: FeatureStatus | undefined;
  lockStatus?: LockStatus | undefined;
  config?: Record<string, unknown> | undefined;
}

/** The most team members a feature change event is sent to. */
const EVENT_FANOUT_LIMIT = 100_000;

/**
 * Changes a team's feature and tells the team (`feature-config.update`). A change of a locked
 * feature is refused with `respectLock` (409 `feature-locked`: team admins and galley's internal
 * PUT); the internal PATCH and lock changes go through. A config must match the feature's shape;
 * `requireConfig` makes it mandatory (team admins' changes). `viaTeamApi` (default: `respectLock`)
 * applies the team API's own conditions (the CRL proxy of mlsE2EId from v6 on).
 */
export async function changeFeature(
  c: Context<AppEnv>,
  db: Db,
  team: string,
  name: FeatureName,
  patch: FeaturePatch,
  o: { respectLock: boolean; requireConfig: boolean; viaTeamApi?: boolean },
): Promise<LockableFeature> {
  const config = c.get('config');
  const def = featureDef(name);
  let featureConfig: Record<string, unknown> | undefined;
  if (def.config !== undefined && (patch.config !== undefined || o.requireConfig)) {
    const parsed = def.config.safeParse(withoutAbsentNulls(def.config, patch.config));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError(
        commonErrors.badRequest,
        `Error in $.config${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}`,
      );
    }
    featureConfig = parsed.data;
  }
  const before = await teamFeature(db, config, team, name);
  if (o.respectLock && before.lockStatus === 'locked') throw new ApiError(galleyErrors.featureLocked);
  await checkChange(name, {
    db,
    config,
    team,
    status: patch.status ?? before.status,
    requestedStatus: patch.status,
    featureConfig: featureConfig ?? before.config,
    viaTeamApi: o.viaTeamApi ?? o.respectLock,
  });
  // Legal hold turned off ends it for every member under it first: a service that cannot hear it
  // leaves the feature on.
  if (name === 'legalhold' && patch.status === 'disabled' && before.status === 'enabled')
    await endTeamLegalhold(deps(c), team);
  const set = {
    ...(patch.status === undefined ? {} : { status: patch.status }),
    ...(patch.lockStatus === undefined ? {} : { lockStatus: patch.lockStatus }),
    ...(featureConfig === undefined ? {} : { config: featureConfig }),
  };
  const now = await teamFeatureAfter(db, config, team, name, set);
  const members = await teamStore.memberIds(db, team, EVENT_FANOUT_LIMIT);
  await commitChange(c.env, config, {
    statements: [
      featureStore.set(db, team, name, set),
      // Without the feature, a team's search visibility is back to standard.
      ...(name === 'searchVisibility' && now.status === 'disabled'
        ? [teamStore.update(db, team, { searchVisibility: 'standard' })]
        : []),
    ],
    effects: [
      publishEffect(
        members.map((user) => ({ user })),
        featureConfigUpdate(team, name, now),
      ),
    ],
  });
  return now;
}
