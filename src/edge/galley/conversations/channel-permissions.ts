import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { Db } from '../../db/client.js';
import type { TeamRole } from '../../../shared/db/schema.js';
import type { Config } from '../../../shared/config/index.js';
import { teamFeature } from '../features/team-features.js';
import { teamStore } from '../teams/team-store.js';
import type { ConversationRow } from './conversation-store.js';

type ChannelSetting = 'allowed_to_create_channels' | 'allowed_to_open_channels';

/** The team roles each value of the channels feature admits (the seed's role table). */
const ADMITTED: Record<string, readonly TeamRole[]> = {
  everyone: ['partner', 'member', 'admin', 'owner'],
  'team-members': ['member', 'admin', 'owner'],
  admins: ['admin', 'owner'],
};

/**
 * A channel is open (public, in the clients' words) when anyone with its link may join: its access
 * holds `link`. Opening one takes the role `allowed_to_open_channels` names, as creating one takes
 * the role of `allowed_to_create_channels`.
 */
export const isOpenChannel = (access: readonly string[]): boolean => access.includes('link');

type ChannelsFeature = { config?: Partial<Record<ChannelSetting, string>> };

/** The team's channels feature, refused with `channels-not-enabled` unless it is on. */
export async function enabledChannels(db: Db, config: Config, team: string): Promise<ChannelsFeature> {
  const channels = await teamFeature(db, config, team, 'channels');
  if (channels.status !== 'enabled') throw new ApiError(galleyErrors.channelsNotEnabled);
  return channels as ChannelsFeature;
}

export function requireChannelRole(
  channels: ChannelsFeature,
  role: TeamRole | undefined,
  setting: ChannelSetting,
): void {
  const admitted = ADMITTED[channels.config?.[setting] ?? 'team-members'] ?? [];
  if (role === undefined || !admitted.includes(role)) throw new ApiError(galleyErrors.operationDenied);
}

/** An access change that opens a team's channel needs the role `allowed_to_open_channels` names. */
export async function requireOpeningAllowed(
  db: Db,
  config: Config,
  conv: ConversationRow,
  user: string,
  nextAccess: readonly string[],
): Promise<void> {
  if (conv.groupConvType !== 'channel' || conv.team === null) return;
  if (!isOpenChannel(nextAccess) || isOpenChannel(conv.access)) return;
  const channels = await enabledChannels(db, config, conv.team);
  requireChannelRole(channels, await teamStore.roleOf(db, conv.team, user), 'allowed_to_open_channels');
}
