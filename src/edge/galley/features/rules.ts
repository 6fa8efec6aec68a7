import type { Config } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { teamStore } from '../teams/team-store.js';
import type { Db } from '../../db/client.js';
import type { FeatureName, FeatureStatus } from './registry.js';
import { teamFeature } from './team-features.js';

export interface ChangeContext {
  db: Db;
  config: Config;
  team: string;
  /** What the feature will be: status and config after the change. */
  status: FeatureStatus;
  /** The status the caller asked for, if any (lock-only changes ask for none). */
  requestedStatus: FeatureStatus | undefined;
  featureConfig: Record<string, unknown> | undefined;
  /** The change comes through the team API (not an internal caller). */
  viaTeamApi: boolean;
}

/** The seed's and wire-server's per-feature conditions on a change; most features have none. */
const RULES: Partial<Record<FeatureName, (x: ChangeContext) => Promise<void> | void>> = {
  legalhold: async ({ db, config, team, requestedStatus }) => {
    if (requestedStatus !== undefined && config.galley.settings.featureFlags.legalhold === 'disabled-permanently')
      throw new ApiError(galleyErrors.legalholdNotEnabled);
    // Ending legal hold walks every member: only teams within the fan-out limit may start it.
    if (requestedStatus === 'enabled' && (await teamStore.size(db, team)) > config.galley.settings.maxFanoutSize)
      throw new ApiError(legalholdErrors.tooLargeTeam);
  },
  sso: ({ requestedStatus }) => {
    if (requestedStatus === 'disabled') throw new ApiError(galleyErrors.ssoDisableNotImplemented);
  },
  appLock: ({ featureConfig }) => {
    if (featureConfig !== undefined && (featureConfig.inactivityTimeoutSecs as number) < 30)
      throw new ApiError(galleyErrors.inactivityTimeoutTooLow);
  },
  mls: async ({ db, config, team, status, featureConfig }) => {
    const c = featureConfig as { defaultProtocol: string; supportedProtocols: string[] } | undefined;
    if (c !== undefined && !c.supportedProtocols.includes(c.defaultProtocol))
      throw new ApiError(galleyErrors.mlsProtocolMismatch);
    // While MLS migration is on, MLS stays on.
    if (status === 'disabled' && (await teamFeature(db, config, team, 'mlsMigration')).status === 'enabled')
      throw new ApiError(galleyErrors.mlsProtocolMismatch);
  },
  mlsMigration: async ({ db, config, team, status }) => {
    if (status === 'enabled' && (await teamFeature(db, config, team, 'mls')).status !== 'enabled')
      throw new ApiError(galleyErrors.mlsProtocolMismatch);
  },
  mlsE2EId: ({ featureConfig, viaTeamApi }) => {
    if (viaTeamApi && featureConfig?.crlProxy === undefined) throw new ApiError(galleyErrors.mlsE2eidMissingCrlProxy);
  },
  enforceFileDownloadLocation: ({ featureConfig }) => {
    if (featureConfig?.enforcedDownloadLocation === '') throw new ApiError(galleyErrors.emptyDownloadLocation);
  },
};

export async function checkChange(name: FeatureName, x: ChangeContext): Promise<void> {
  await RULES[name]?.(x);
}
