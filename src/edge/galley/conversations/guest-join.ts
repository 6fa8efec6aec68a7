import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { verifyPassword } from '../../../shared/password-hash.js';
import { database } from '../../db/client.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { guestLinksEnabled } from '../features/guest-links.js';
import { membershipChangedEffect } from './conversation-object.js';
import { codeStore, type CodeRow, type ConversationRow } from './conversation-store.js';
import { conversationBook } from './conversation-book.js';
import { memberRow } from './member-data.js';
import { memberJoinData } from './member-data.js';
import { tellMembersEffect } from './notify.js';
import { ROLE_MEMBER } from './roles.js';
import { deps } from '../../api/deps.js';

const keyAndCode = z.object({ key: z.string().min(1), code: z.string().min(1) });

/** The conversation a key and code open; 404 `no-conversation-code` for a wrong pair or disabled links. */
async function resolveCode(
  c: Context<AppEnv>,
  key: string,
  code: string,
): Promise<{ row: CodeRow; conv: ConversationRow }> {
  const db = database(c.env.DB);
  const row = await codeStore.byKey(db, key);
  if (row === undefined || row.code !== code) throw new ApiError(galleyErrors.noConversationCode);
  const conv = await conversationBook.get(c.env, { id: row.convId, domain: row.convDomain });
  if (conv === undefined) throw new ApiError(galleyErrors.noConversationCode);
  return { row, conv };
}

export const checkCode = endpoint(
  {
    name: 'code-check',
    method: 'post',
    path: '/conversations/code-check',
    auth: 'none',
    request: jsonBody(keyAndCode.extend({ password: z.string().optional() }).openapi('ConversationCode')),
    errors: [galleyErrors.noConversationCode],
    responses: { 200: { description: 'Valid' } },
  },
  async (c) => {
    const { key, code } = c.req.valid('json');
    const { conv } = await resolveCode(c, key, code);
    if (!(await guestLinksEnabled(database(c.env.DB), c.get('config'), conv.team)))
      throw new ApiError(galleyErrors.noConversationCode);
    return c.body(null, 200);
  },
);

export const joinPreview = endpoint(
  {
    name: 'get-conversation-by-reusable-code',
    method: 'get',
    path: '/conversations/join',
    request: { query: keyAndCode },
    errors: [galleyErrors.noConversationCode, galleyErrors.guestLinksDisabled, galleyErrors.accessDenied],
    responses: {
      200: {
        description: 'What the link opens',
        ...json(
          z
            .object({ id: z.uuid(), name: z.string().nullable(), has_password: z.boolean() })
            .openapi('ConversationCoverView'),
        ),
      },
    },
  },
  async (c) => {
    const { key, code } = c.req.valid('query');
    const { row, conv } = await resolveCode(c, key, code);
    if (!(await guestLinksEnabled(database(c.env.DB), c.get('config'), conv.team)))
      throw new ApiError(galleyErrors.guestLinksDisabled);
    if (!conv.access.includes('code')) throw new ApiError(galleyErrors.accessDenied);
    return c.json({ id: conv.id, name: conv.name, has_password: row.password !== null }, 200);
  },
);

export const joinByCode = endpoint(
  {
    name: 'join-conversation-by-code-unqualified',
    method: 'post',
    path: '/conversations/join',
    request: jsonBody(keyAndCode.extend({ password: z.string().optional() }).openapi('JoinConversationByCode')),
    errors: [
      galleyErrors.noConversationCode,
      galleyErrors.guestLinksDisabled,
      galleyErrors.invalidConversationPassword,
      galleyErrors.accessDenied,
      galleyErrors.invalidOp,
      galleyErrors.tooManyMembers,
    ],
    responses: {
      200: { description: 'Joined', ...json(z.record(z.string(), z.unknown()).openapi('Event')) },
      204: { description: 'Already a member' },
    },
  },
  async (c) => {
    const { key, code, password } = c.req.valid('json');
    const { row, conv } = await resolveCode(c, key, code);
    const config = c.get('config');
    if (!(await guestLinksEnabled(database(c.env.DB), config, conv.team)))
      throw new ApiError(galleyErrors.guestLinksDisabled);
    if (row.password !== null) {
      const ok =
        password !== undefined &&
        (await verifyPassword(password, row.password, config.galley.settings.passwordHashingOptions)).ok;
      if (!ok) throw new ApiError(galleyErrors.invalidConversationPassword);
    }
    return joinOpened(c, conv, 'code');
  },
);

/** The caller joins a group conversation that `opened` opens to them, as a member; 204 when they are one. */
async function joinOpened(c: Context<AppEnv>, conv: ConversationRow, opened: 'code' | 'link') {
  if (conv.type !== 0) throw new ApiError(galleyErrors.invalidOp);
  if (!conv.access.includes(opened)) throw new ApiError(galleyErrors.accessDenied);
  const me = selfQualified(c);
  const joiner = await deps(c).users.account(me);
  const role = joiner?.activated ? 'non_team_member' : 'guest';
  const allowed =
    conv.accessRole.includes(role) ||
    (conv.team !== null && joiner?.team === conv.team && conv.accessRole.includes('team_member'));
  if (!allowed) throw new ApiError(galleyErrors.accessDenied);
  const members = await conversationBook.members(c.env, conv);
  if (members.some((m) => m.userId === me.id && m.userDomain === me.domain)) return c.body(null, 204);
  if (members.length + 1 > c.get('config').galley.settings.maxConvSize) throw new ApiError(galleyErrors.tooManyMembers);
  const joined = memberRow(conv, me, ROLE_MEMBER);
  const ev = conversationEvent('conversation.member-join', conv, me, memberJoinData([joined]), { team: conv.team });
  await commitChange(
    c.env,
    c.get('config'),
    joinChanges(conversationBook.addMembers(c.env, [joined]), {
      statements: [],
      effects: [membershipChangedEffect(conv), tellMembersEffect(conv, [...members, joined], ev, c.get('self'))],
    }),
  );
  return c.json(ev, 200);
}

/** `POST /conversations/{cnv}/join` (until v5): a local group conversation with `link` access. */
export const joinById = endpoint(
  {
    name: 'join-conversation-by-id-unqualified',
    method: 'post',
    path: '/conversations/{cnv}/join',
    until: 5,
    request: { params: z.object({ cnv: z.uuid() }) },
    errors: [
      galleyErrors.noConversation,
      galleyErrors.accessDenied,
      galleyErrors.invalidOp,
      galleyErrors.tooManyMembers,
    ],
    responses: {
      200: { description: 'Joined', ...json(z.record(z.string(), z.unknown()).openapi('Event')) },
      204: { description: 'Already a member' },
    },
  },
  async (c) => {
    const id = { id: c.req.valid('param').cnv, domain: selfQualified(c).domain };
    const conv = await conversationBook.get(c.env, id);
    if (conv === undefined) throw new ApiError(galleyErrors.noConversation);
    return joinOpened(c, conv, 'link');
  },
);
