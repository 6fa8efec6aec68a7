// A conversation's move from Proteus to mixed to MLS (wire-server's protocol update): which moves
// there are, what each sets, and the migration criteria the last one waits for.
import { ConvType } from '../../../shared/mls/group-id.js';
import type { Deps } from '../../api/deps.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import type { Viewing } from '../conversations/access-check.js';
import type { ConversationRow } from '../conversations/conversation-store.js';
import { teamFeature } from '../features/team-features.js';
import { newGroupId } from './mls-conversation-row.js';
import type { Protocol } from '../conversations/update-request.js';

/**
 * Whether a mixed conversation may become MLS (wire-server's migration criteria): the team's
 * mlsMigration feature on, and either its `finaliseRegardlessAfter` passed or every member
 * supporting MLS.
 */
async function migrationCriteriaMet(d: Deps, v: Viewing, team: string): Promise<boolean> {
  const migration = await teamFeature(d.db, d.config, team, 'mlsMigration');
  if (migration.status !== 'enabled') return false;
  const deadline = (migration.config as { finaliseRegardlessAfter?: string } | undefined)?.finaliseRegardlessAfter;
  if (deadline !== undefined && Date.now() >= Date.parse(deadline)) return true;
  const users = await d.users.accounts(v.members.map((u) => ({ id: u.userId, domain: u.userDomain })));
  return users.length === v.members.length && users.every((u) => u.supportedProtocols.includes('mls'));
}

/**
 * A team conversation moves from Proteus to mixed, and from mixed to MLS once the migration
 * criteria are met (400 `mls-migration-criteria-not-satisfied`); the same protocol again changes
 * nothing, any other move is 403 `invalid-protocol-transition`.
 */
export async function checkProtocolTransition(d: Deps, v: Viewing, protocol: Protocol): Promise<'unchanged' | 'valid'> {
  const { conv } = v;
  if (conv.protocol === protocol) return 'unchanged';
  if (conv.protocol === 'proteus' && protocol === 'mixed' && conv.team !== null) return 'valid';
  if (conv.protocol === 'mixed' && protocol === 'mls' && conv.team !== null) {
    if (!(await migrationCriteriaMet(d, v, conv.team))) throw new ApiError(mlsErrors.mlsMigrationCriteriaNotSatisfied);
    return 'valid';
  }
  throw new ApiError(galleyErrors.invalidProtocolTransition);
}

/** What a checked move sets: a mixed conversation gets its MLS group id, at epoch 0. */
export const protocolPatch = (conv: ConversationRow, protocol: Protocol): Partial<ConversationRow> =>
  protocol === 'mixed' ? { protocol: 'mixed', groupId: newGroupId(conv, ConvType.regular), epoch: 0 } : { protocol };
