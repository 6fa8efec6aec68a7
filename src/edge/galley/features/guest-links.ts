import type { Config } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import { featureEnabled } from './team-features.js';

/**
 * Whether guest links may be used in a conversation of this team (team feature
 * `conversationGuestLinks`); conversations without a team use the server default.
 */
export function guestLinksEnabled(db: Db, config: Config, team: string | null): Promise<boolean> {
  return featureEnabled(db, config, team, 'conversationGuestLinks');
}
