import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { withoutAbsentNulls } from '../../api/null-as-absent.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { Db } from '../../db/client.js';
import { featureConfigUpdate } from '../../events/feature-events.js';
import { publish } from '../../events/publish.js';
import { endTeamLegalhold } from '../legalhold/end-legalhold.js';
import { teamStore } from '../teams/team-store.js';
import { featureDef, type FeatureName, type FeatureStatus, type LockableFeature, type LockStatus } from './registry.js';
import { checkChange } from './rules.js';
import { featureStore } from './feature-store.js';
import { teamFeature } from './team-features.js';

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
    await endTeamLegalhold(c.env, config, db, team);
  await featureStore
    .set(db, team, name, {
      ...(patch.status === undefined ? {} : { status: patch.status }),
      ...(patch.lockStatus === undefined ? {} : { lockStatus: patch.lockStatus }),
      ...(featureConfig === undefined ? {} : { config: featureConfig }),
    })
    .run();
  const now = await teamFeature(db, config, team, name);
  // Without the feature, a team's search visibility is back to standard.
  if (name === 'searchVisibility' && now.status === 'disabled')
    await teamStore.update(db, team, { searchVisibility: 'standard' }).run();
  const members = await teamStore.memberIds(db, team, EVENT_FANOUT_LIMIT);
  await publish(
    c.env,
    config,
    members.map((user) => ({ user })),
    featureConfigUpdate(team, name, now),
  );
  return now;
}
