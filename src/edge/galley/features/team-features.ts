import type { Config } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import { featureStore, type TeamOverride } from './feature-store.js';
import { FEATURE_NAMES, featureDef, type FeatureName, type LockableFeature } from './registry.js';

export type AllFeatures = Record<FeatureName, LockableFeature>;

/** The server's features, computed once per configuration (it is parsed once per isolate). */
const serverCache = new WeakMap<Config, AllFeatures>();

export function serverFeatures(config: Config): AllFeatures {
  let all = serverCache.get(config);
  if (all === undefined) {
    const flags = config.galley.settings.featureFlags;
    all = Object.fromEntries(FEATURE_NAMES.map((n) => [n, featureDef(n).serverDefault(flags)])) as AllFeatures;
    serverCache.set(config, all);
  }
  return all;
}

/**
 * A team's value: its own lock status if set, else the server's; while locked, the server's
 * status and config apply whatever the team chose before.
 */
function resolveFeature(server: LockableFeature, o: TeamOverride | undefined): LockableFeature {
  const lockStatus = o?.lockStatus ?? server.lockStatus;
  if (o === undefined || lockStatus === 'locked') return { ...server, lockStatus };
  return {
    status: o.status ?? server.status,
    lockStatus,
    ttl: 'unlimited',
    ...(server.config === undefined ? {} : { config: o.config ?? server.config }),
  };
}

/**
 * exposeInvitationURLsToTeamAdmin exists only for teams in galley's allow-list: for them it is
 * unlocked (off until enabled); for every other team it is off and locked.
 */
function forTeam(config: Config, team: string, name: FeatureName, server: LockableFeature): LockableFeature {
  if (name !== 'exposeInvitationURLsToTeamAdmin') return server;
  return config.galley.settings.exposeInvitationURLsTeamAllowlist.includes(team)
    ? { ...server, lockStatus: 'unlocked' }
    : { ...server, status: 'disabled', lockStatus: 'locked' };
}

function teamValue(config: Config, team: string, name: FeatureName, o: TeamOverride | undefined): LockableFeature {
  const server = forTeam(config, team, name, serverFeatures(config)[name]);
  // Legal hold held off for good: off for every team, whatever a team chose before (its devices stay).
  if (name === 'legalhold' && config.galley.settings.featureFlags.legalhold === 'disabled-permanently') return server;
  // Outside the allow-list nothing a team (or an operator) stored applies.
  if (name === 'exposeInvitationURLsToTeamAdmin' && server.lockStatus === 'locked') return server;
  return resolveFeature(server, o);
}

export async function teamFeature(db: Db, config: Config, team: string, name: FeatureName): Promise<LockableFeature> {
  return teamValue(config, team, name, await featureStore.one(db, team, name));
}

/** A team's value of a feature once `patch` is set (featureStore.set), for the change that sets it. */
export async function teamFeatureAfter(
  db: Db,
  config: Config,
  team: string,
  name: FeatureName,
  patch: Partial<Pick<TeamOverride, 'status' | 'lockStatus' | 'config'>>,
): Promise<LockableFeature> {
  const stored = (await featureStore.one(db, team, name)) ?? {
    team,
    name,
    status: null,
    lockStatus: null,
    config: null,
  };
  return teamValue(config, team, name, { ...stored, ...patch });
}

export async function allTeamFeatures(db: Db, config: Config, team: string): Promise<AllFeatures> {
  const overrides = await featureStore.all(db, team);
  return Object.fromEntries(FEATURE_NAMES.map((n) => [n, teamValue(config, team, n, overrides.get(n))])) as AllFeatures;
}

/** Whether a feature is on for a user's team, or on the server for users without one. */
export async function featureEnabled(db: Db, config: Config, team: string | null, name: FeatureName): Promise<boolean> {
  const f = team === null ? serverFeatures(config)[name] : await teamFeature(db, config, team, name);
  return f.status === 'enabled';
}

/** Personal users' conference calling: their own record, else brig's default for accounts without one. */
export function personalConferenceCalling(config: Config, user: { conferenceCalling: 'enabled' | 'disabled' | null }) {
  return (
    user.conferenceCalling ??
    config.brig.optSettings.setFeatureFlags?.conferenceCalling?.defaultForNull.status ??
    'enabled'
  );
}

/** Whether a user may start conference calls: their team's feature, or their own as a personal user. */
export async function conferenceCallingEnabled(
  db: Db,
  config: Config,
  user: { team: string | null; conferenceCalling: 'enabled' | 'disabled' | null },
): Promise<boolean> {
  if (user.team !== null) return (await teamFeature(db, config, user.team, 'conferenceCalling')).status === 'enabled';
  return personalConferenceCalling(config, user) === 'enabled';
}
