import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import type { Viewing } from '../conversations/access-check.js';
import { convParams } from '../conversations/read-routes.js';
import { change, changed } from '../conversations/updates.js';
import { teamFeature } from '../features/team-features.js';
import { ConvType } from '../../../shared/mls/group-id.js';
import { newGroupId } from './mls-conversation-row.js';
import { deps } from '../../api/deps.js';

/**
 * Whether a mixed conversation may become MLS (wire-server's migration criteria): the team's
 * mlsMigration feature on, and either its `finaliseRegardlessAfter` passed or every member
 * supporting MLS.
 */
async function migrationCriteriaMet(c: Context<AppEnv>, m: Viewing, team: string): Promise<boolean> {
  const db = database(c.env.DB);
  const migration = await teamFeature(db, c.get('config'), team, 'mlsMigration');
  if (migration.status !== 'enabled') return false;
  const deadline = (migration.config as { finaliseRegardlessAfter?: string } | undefined)?.finaliseRegardlessAfter;
  if (deadline !== undefined && Date.now() >= Date.parse(deadline)) return true;
  const users = await deps(c).users.accounts(m.members.map((u) => ({ id: u.userId, domain: u.userDomain })));
  return users.length === m.members.length && users.every((u) => u.supportedProtocols.includes('mls'));
}

/**
 * `PUT /conversations/{cnv_domain}/{cnv}/protocol`: a team conversation moves from Proteus to
 * mixed (it gets its MLS group id, epoch 0) and from mixed to MLS once the migration criteria are
 * met (400 `mls-migration-criteria-not-satisfied`); the same protocol again changes nothing (204),
 * any other move is 403 `invalid-protocol-transition`.
 */
export const updateConversationProtocol = endpoint(
  {
    name: 'update-conversation-protocol',
    method: 'put',
    path: '/conversations/{cnv_domain}/{cnv}/protocol',
    from: 5,
    request: {
      params: convParams,
      ...jsonBody(z.object({ protocol: z.enum(['proteus', 'mixed', 'mls']) }).openapi('ProtocolUpdate')),
    },
    errors: [
      galleyErrors.noConversation,
      galleyErrors.actionDenied,
      galleyErrors.invalidProtocolTransition,
      mlsErrors.mlsMigrationCriteriaNotSatisfied,
    ],
    responses: changed,
  },
  (c) => {
    const { protocol } = c.req.valid('json');
    // The conversation's object checks messages against the protocol: it reads it again.
    return change(c, 'leave_conversation', { groupOnly: false, reload: true }, async (m) => {
      const { conv } = m;
      if (conv.protocol === protocol) return 'unchanged';
      const data = { protocol };
      if (conv.protocol === 'proteus' && protocol === 'mixed' && conv.team !== null)
        return {
          type: 'conversation.protocol-update',
          data,
          patch: { protocol: 'mixed', groupId: newGroupId(conv, ConvType.regular), epoch: 0 },
        };
      if (conv.protocol === 'mixed' && protocol === 'mls' && conv.team !== null) {
        if (!(await migrationCriteriaMet(c, m, conv.team)))
          throw new ApiError(mlsErrors.mlsMigrationCriteriaNotSatisfied);
        return { type: 'conversation.protocol-update', data, patch: { protocol: 'mls' } };
      }
      throw new ApiError(galleyErrors.invalidProtocolTransition);
    });
  },
);
