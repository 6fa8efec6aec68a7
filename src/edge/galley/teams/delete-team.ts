import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { jsonBody } from '../../api/schemas/common.js';
import { selfQualified, self } from '../../api/self.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { runBatch } from '../../db/client.js';
import { type Change, commitChange, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { publishEffect } from '../../events/publish.js';
import { teamEvent } from '../../events/team-events.js';
import { codeStore } from '../conversations/conversation-store.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { membershipChangedEffect } from '../conversations/conversation-object.js';
import { hasPerm } from '../../api/team-permissions.js';
import { requireReauth } from './reauth.js';
import { requireTeamMember } from './team-access.js';
import { teamNotificationStore } from './team-notification-store.js';
import { teamStore } from './team-store.js';
import { deps, type Deps } from '../../api/deps.js';

/**
 * `DELETE /teams/{tid}`: the owner, with password (and a code when the second factor applies),
 * deletes the team: its members get `team.delete`, its conversations end with
 * `conversation.delete`, every member account is deleted, and the team's data goes.
 */
export const deleteTeam = endpoint(
  {
    name: 'delete-team',
    method: 'delete',
    path: '/teams/{tid}',
    request: {
      params: z.object({ tid: z.uuid() }),
      ...jsonBody(
        z
          .object({ password: z.string().min(6).max(1024).optional(), verification_code: z.string().optional() })
          .openapi('TeamDeleteData'),
      ),
    },
    errors: [
      galleyErrors.noTeamMember,
      galleyErrors.operationDenied,
      galleyErrors.reauthRequired,
      brigErrors.codeAuthenticationRequired,
      brigErrors.codeAuthenticationFailed,
    ],
    responses: { 202: { description: 'Team is scheduled for removal' } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const body = c.req.valid('json');
    const role = await requireTeamMember(deps(c), self(c).user, tid);
    if (!hasPerm(role, 'DeleteTeam'))
      throw new ApiError(galleyErrors.operationDenied, 'Insufficient permissions (missing DeleteTeam)');
    const d = deps(c);
    await requireReauth(d, self(c).user, body.password);
    await d.users.enforceVerificationCode(self(c).user, 'delete_team', body.verification_code);
    await removeTeam(d, tid, selfQualified(c));
    return c.body(null, 202);
  },
);

/**
 * Deletes a team: its members get `team.delete` and its conversations end with
 * `conversation.delete` (from `actor`), as one change; then every member account is deleted, and
 * the team's data goes.
 */
export async function removeTeam(d: Deps, tid: string, actor: QualifiedId): Promise<void> {
  const { db, config } = d;
  const members = await teamStore.memberIds(db, tid, config.galley.settings.maxTeamSize);
  const ended: Change[] = [];
  for (const id of await conversationBook.ofTeam(d.env, tid)) {
    const conv = (await conversationBook.get(d.env, id))!;
    const convMembers = await conversationBook.members(d.env, id);
    const local = convMembers.filter((m) => m.userDomain === actor.domain).map((m) => ({ user: m.userId }));
    ended.push(conversationBook.remove(d.env, id, convMembers), {
      statements: [codeStore.remove(db, id)],
      effects: [
        membershipChangedEffect(id),
        publishEffect(local, conversationEvent('conversation.delete', conv, actor, null, { team: tid })),
      ],
    });
  }
  const told = {
    statements: [],
    effects: [
      publishEffect(
        members.map((user) => ({ user })),
        teamEvent('team.delete', tid, null),
      ),
    ],
  };
  await commitChange(d.env, config, joinChanges(told, ...ended));
  for (const id of members) await d.users.deleteAccount(id);
  await runBatch(db, [...teamStore.remove(db, tid), teamNotificationStore.removeTeam(db, tid)]);
}
