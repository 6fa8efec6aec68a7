import type { Config } from '../../../shared/config/index.js';

/**
 * Whether guest links may be used in a conversation of this team (team feature
 * `conversationGuestLinks`); conversations without a team use the server default. Teams use the
 * galley default until per-team feature settings exist.
 */
export function guestLinksEnabled(config: Config, team: string | null): boolean {
  void team;
  return config.galley.settings.featureFlags.conversationGuestLinks.defaults.status === 'enabled';
}
