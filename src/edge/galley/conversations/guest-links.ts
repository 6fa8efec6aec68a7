import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { base64url, randomToken, sha256 } from '../../../shared/keys.js';
import { hashPassword } from '../../../shared/password-hash.js';
import { database } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { guestLinksEnabled } from '../features/guest-links.js';
import { requireConversationAdmin, requireMember, type Membership } from './access-check.js';
import { codeStore, type CodeRow, type ConversationRow } from './conversation-store.js';
import { tellMembersEffect } from './notify.js';
import { deps } from '../../api/deps.js';

const codeInfo = z
  .object({ key: z.string(), code: z.string(), uri: z.string(), has_password: z.boolean() })
  .openapi('ConversationCodeInfo');
const event = z.record(z.string(), z.unknown()).openapi('Event');
const cnvParam = { params: z.object({ cnv: z.uuid() }) };

/** The join link: `conversationCodeURI`, or the multi-ingress prefix of the request's Z-Host. */
function uriPrefix(c: Context<AppEnv>): string | undefined {
  const s = c.get('config').galley.settings;
  return s.conversationCodeURI ?? s.multiIngress?.[c.get('zHost')];
}

function codeJson(c: Context<AppEnv>, row: CodeRow) {
  const url = new URL(uriPrefix(c) ?? 'http://invalid/');
  url.search = `?key=${row.key}&code=${row.code}`;
  return { key: row.key, code: row.code, uri: url.toString(), has_password: row.password !== null };
}

/** Links need the feature, `code` in the access modes and guests or non-team members admitted. */
async function requireLinkable(c: Context<AppEnv>, conv: ConversationRow): Promise<void> {
  if (!(await guestLinksEnabled(database(c.env.DB), c.get('config'), conv.team)))
    throw new ApiError(galleyErrors.guestLinksDisabled);
  if (!conv.access.includes('code')) throw new ApiError(galleyErrors.accessDenied);
}

async function localMember(c: Context<AppEnv>): Promise<Membership> {
  return requireMember(deps(c), { id: c.req.param('cnv')!, domain: selfQualified(c).domain }, selfQualified(c));
}

export const createCode = endpoint(
  {
    name: 'create-conversation-code-unqualified',
    method: 'post',
    path: '/conversations/{cnv}/code',
    request: {
      ...cnvParam,
      body: { required: false, ...json(z.object({ password: z.string().min(8).max(1024).optional() })) },
    },
    errors: [
      galleyErrors.noConversation,
      galleyErrors.guestLinksDisabled,
      galleyErrors.accessDenied,
      galleyErrors.codeConflict,
    ],
    responses: {
      200: { description: 'The existing link', ...json(codeInfo) },
      201: { description: 'Link created', ...json(event) },
    },
  },
  async (c) => {
    const password = (c.req.valid('json') as { password?: string } | undefined)?.password;
    const m = await localMember(c);
    const { conv, members } = m;
    await requireLinkable(c, conv);
    await requireConversationAdmin(database(c.env.DB), m);
    if (!conv.accessRole.includes('guest') && !conv.accessRole.includes('non_team_member'))
      throw new ApiError(galleyErrors.accessDenied);
    if (uriPrefix(c) === undefined) throw new ApiError(galleyErrors.accessDenied);
    const db = database(c.env.DB);
    const existing = await codeStore.of(db, conv);
    if (existing !== undefined) {
      if (existing.password !== null || password !== undefined) throw new ApiError(galleyErrors.codeConflict);
      return c.json(codeJson(c, existing), 200);
    }
    const settings = c.get('config').galley.settings;
    const row: CodeRow = {
      convDomain: conv.domain,
      convId: conv.id,
      key: base64url((await sha256(conv.id)).slice(0, 15)),
      code: randomToken(15),
      password: password === undefined ? null : await hashPassword(password, settings.passwordHashingOptions),
      expiresAt: Date.now() + settings.guestLinkTTLSeconds * 1000,
    };
    const ev = conversationEvent('conversation.code-update', conv, selfQualified(c), codeJson(c, row));
    await commitChange(c.env, c.get('config'), {
      statements: [codeStore.put(db, row)],
      effects: [tellMembersEffect(conv, members, ev, c.get('self'))],
    });
    return c.json(ev, 201);
  },
);

export const getCode = endpoint(
  {
    name: 'get-conversation-guest-links-status',
    method: 'get',
    path: '/conversations/{cnv}/code',
    request: cnvParam,
    errors: [
      galleyErrors.noConversation,
      galleyErrors.guestLinksDisabled,
      galleyErrors.accessDenied,
      galleyErrors.noConversationCode,
    ],
    responses: { 200: { description: 'The link', ...json(codeInfo) } },
  },
  async (c) => {
    const { conv } = await localMember(c);
    await requireLinkable(c, conv);
    const row = await codeStore.of(database(c.env.DB), conv);
    if (row === undefined) throw new ApiError(galleyErrors.noConversationCode);
    // No link can be written for a host that multi-ingress does not know.
    if (uriPrefix(c) === undefined) throw new ApiError(galleyErrors.accessDenied);
    return c.json(codeJson(c, row), 200);
  },
);

export const deleteCode = endpoint(
  {
    name: 'remove-code-unqualified',
    method: 'delete',
    path: '/conversations/{cnv}/code',
    request: cnvParam,
    errors: [galleyErrors.noConversation, galleyErrors.accessDenied],
    responses: { 200: { description: 'Link removed', ...json(event) } },
  },
  async (c) => {
    const m = await localMember(c);
    const { conv, members } = m;
    await requireConversationAdmin(database(c.env.DB), m);
    if (!conv.access.includes('code')) throw new ApiError(galleyErrors.accessDenied);
    const ev = conversationEvent('conversation.code-delete', conv, selfQualified(c), null);
    await commitChange(c.env, c.get('config'), {
      statements: [codeStore.remove(database(c.env.DB), conv)],
      effects: [tellMembersEffect(conv, members, ev, c.get('self'))],
    });
    return c.json(ev, 200);
  },
);
