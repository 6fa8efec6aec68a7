import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { userEvents } from '../../events/user-events.js';
import { publishEffect } from '../../events/publish.js';
import { teamEvent } from '../../events/team-events.js';
import { createTeam, teamJson } from '../../galley/face.js';
import { userStore } from '../users/user-store.js';
import { guardUpgradeToTeam } from '../domains/email-guards.js';
import { domainErrors } from '../../api/errors/domains.js';
import { slotOf, uuidInSlot } from '../../../shared/db/partitions.js';

const icon = z.string().min(1).max(256);

/**
 * `POST /upgrade-personal-to-team`: a personal user creates a team and becomes its owner, in one
 * batch. Their sessions get `team.create` and `user.update` with the team.
 */
export const upgradePersonalToTeam = endpoint(
  {
    name: 'upgrade-personal-to-team',
    method: 'post',
    path: '/upgrade-personal-to-team',
    request: jsonBody(
      z
        .object({ name: z.string().min(1).max(256), icon, icon_key: icon.optional(), currency: z.string().optional() })
        .openapi('BindingNewTeamUser'),
    ),
    errors: [brigErrors.userAlreadyInATeam, brigErrors.userNotFound, domainErrors.emailDomainGuard],
    responses: {
      200: {
        description: 'Team created',
        ...json(z.object({ team_id: z.uuid(), team_name: z.string() }).openapi('CreateUserTeam')),
      },
    },
  },
  async (c) => {
    const body = c.req.valid('json');
    const db = database(c.env.DB);
    const me = await userStore.byId(db, self(c).user);
    if (me === undefined || !me.activated) throw new ApiError(brigErrors.userNotFound);
    if (me.team !== null) throw new ApiError(brigErrors.userAlreadyInATeam);
    if (me.email !== null) await guardUpgradeToTeam(db, me.email);
    const id = uuidInSlot(slotOf(me.id)); // in its creator's slot (see createAccount)
    const team = { id, name: body.name, icon: body.icon, iconKey: body.icon_key, creator: me.id };
    const created = teamJson({ ...team, iconKey: team.iconKey ?? null, splashScreen: null });
    await commitChange(c.env, c.get('config'), {
      statements: [...createTeam(db, team), userStore.update(db, me.id, { team: id })],
      effects: [
        publishEffect([{ user: me.id }], teamEvent('team.create', id, created)),
        publishEffect([{ user: me.id }], userEvents.update({ id: me.id, team: id })),
      ],
    });
    return c.json({ team_id: id, team_name: team.name }, 200);
  },
);
