import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, uuid } from '../../api/schemas/common.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { conversationRolesList } from '../conversations/read-routes.js';
import { builtInRoles } from '../conversations/roles.js';
import { hasPerm } from '../../api/team-permissions.js';
import { requireTeamMember } from './team-access.js';
import { deps, type Deps } from '../../api/deps.js';
import { self } from '../../api/self.js';

const params = z.object({ tid: z.uuid() });

const teamConversation = z
  .object({
    conversation: uuid,
    managed: z.boolean().openapi({
      description:
        'This field MUST NOT be used by clients. It is here only for backwards compatibility of the interface.',
    }),
  })
  .openapi('TeamConversation');

// Managed conversations are gone from wire; the key stays, always false.
const teamConversationJson = (id: string) => ({ conversation: id, managed: false });

/** Team members holding GetTeamConversations (every role has it, partners included). */
async function requireTeamConversationsReader(d: Deps, user: string, team: string): Promise<void> {
  if (!hasPerm(await requireTeamMember(d, user, team), 'GetTeamConversations'))
    throw new ApiError(galleyErrors.operationDenied);
}

/** `GET /teams/{tid}/conversations`: every conversation of the team, whether the caller is in it or not. */
export const getTeamConversations = endpoint(
  {
    name: 'get-team-conversations',
    method: 'get',
    path: '/teams/{tid}/conversations',
    request: { params },
    errors: [galleyErrors.noTeamMember, galleyErrors.operationDenied],
    responses: {
      200: {
        description: 'The team’s conversations',
        ...json(z.object({ conversations: z.array(teamConversation) }).openapi('TeamConversationList')),
      },
    },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    await requireTeamConversationsReader(deps(c), self(c).user, tid);
    const ids = await conversationBook.ofTeam(c.env, tid);
    return c.json({ conversations: ids.map((q) => teamConversationJson(q.id)) }, 200);
  },
);

/** `GET /teams/{tid}/conversations/roles`: the built-in conversation roles, to any team member. */
export const getTeamConversationRoles = endpoint(
  {
    name: 'get-team-conversation-roles',
    method: 'get',
    path: '/teams/{tid}/conversations/roles',
    request: { params },
    errors: [galleyErrors.noTeamMember],
    responses: {
      200: { description: 'The roles available in the team’s conversations', ...json(conversationRolesList) },
    },
  },
  async (c) => {
    await requireTeamMember(deps(c), self(c).user, c.req.valid('param').tid);
    return c.json({ conversation_roles: builtInRoles() }, 200);
  },
);

/** `GET /teams/{tid}/conversations/{cid}`: one conversation of the team; 404 when it is not the team's. */
export const getTeamConversation = endpoint(
  {
    name: 'get-team-conversation',
    method: 'get',
    path: '/teams/{tid}/conversations/{cid}',
    request: { params: params.extend({ cid: z.uuid() }) },
    errors: [galleyErrors.noTeamMember, galleyErrors.operationDenied, galleyErrors.noConversation],
    responses: { 200: { description: 'The team conversation', ...json(teamConversation) } },
  },
  async (c) => {
    const { tid, cid } = c.req.valid('param');
    await requireTeamConversationsReader(deps(c), self(c).user, tid);
    const conv = await conversationBook.get(c.env, {
      id: cid,
      domain: deps(c).domain,
    });
    if (conv?.team !== tid) throw new ApiError(galleyErrors.noConversation);
    return c.json(teamConversationJson(cid), 200);
  },
);
