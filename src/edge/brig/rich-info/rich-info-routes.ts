import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { userStore, visibleAccount } from '../users/user-store.js';
import { normalizeRichInfo, richInfoAssocList, richInfoInput, richInfoSize } from './rich-info-json.js';
import { richInfoStore } from './rich-info-store.js';

const params = z.object({ uid: z.uuid() });

/** `GET /users/{uid}/rich-info`: for members of the user's own team, whatever their role. */
export const getRichInfo = endpoint(
  {
    name: 'get-rich-info',
    method: 'get',
    path: '/users/{uid}/rich-info',
    request: { params },
    errors: [brigErrors.insufficientPermissions, brigErrors.userNotFound],
    responses: { 200: { description: 'Rich info about the user', ...json(richInfoAssocList) } },
  },
  async (c) => {
    const { uid } = c.req.valid('param');
    const db = database(c.env.DB);
    const [me, them] = await Promise.all([userStore.byId(db, self(c).user), userStore.byId(db, uid)]);
    if (!visibleAccount(me) || !visibleAccount(them)) throw new ApiError(brigErrors.userNotFound);
    if (me.team === null || me.team !== them.team) throw new ApiError(brigErrors.insufficientPermissions);
    return c.json({ version: 0, fields: (await richInfoStore.get(db, uid)) ?? [] }, 200);
  },
);

/** Internal `PUT /i/users/{uid}/rich-info` (spar's SCIM provisioning): replaces the list, no event. */
export const putRichInfo = endpoint(
  {
    name: 'iPutRichInfo',
    method: 'put',
    path: '/i/users/{uid}/rich-info',
    request: { params, ...jsonBody(z.object({ rich_info: richInfoInput }).openapi('RichInfoUpdate')) },
    errors: [brigErrors.tooLargeRichInfo],
    responses: { 200: { description: 'Rich info stored' } },
  },
  async (c) => {
    const { uid } = c.req.valid('param');
    const fields = normalizeRichInfo(c.req.valid('json').rich_info.fields);
    if (richInfoSize(fields) > c.get('config').brig.optSettings.setRichInfoLimit)
      throw new ApiError(brigErrors.tooLargeRichInfo);
    await richInfoStore.setStatement(database(c.env.DB), uid, fields);
    return c.body(null, 200);
  },
);
