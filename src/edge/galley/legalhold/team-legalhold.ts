import type { Config } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import type { Db } from '../../db/client.js';
import { teamFeature } from '../features/team-features.js';

/** Whether legal hold is on for the team: its feature, which the server flag can hold off for good. */
export async function legalholdEnabledForTeam(db: Db, config: Config, team: string): Promise<boolean> {
  if (config.galley.settings.featureFlags.legalhold === 'disabled-permanently') return false;
  return (await teamFeature(db, config, team, 'legalhold')).status === 'enabled';
}

/** 403 `legalhold-not-enabled` unless legal hold is on for the team. */
export async function requireLegalholdEnabled(db: Db, config: Config, team: string): Promise<void> {
  if (!(await legalholdEnabledForTeam(db, config, team))) throw new ApiError(legalholdErrors.notEnabledForTeam);
}
