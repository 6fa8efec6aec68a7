// GET and PUT /self/consent: the user's answers to the terms of use and to marketing mail, which
// Wire's clients ask for (the web app on its "set username" page). In wire-server's deployments
// nginz routes these to a separate service (galeb), unversioned with any version prefix stripped,
// and they are not in brig's API documents; so here they exist in every version, undocumented.
// The answers are kept in the user's Account object.
import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { accountObject } from '../clients/account-object.js';

const TERMS_OF_USE = 1;
const MARKETING = 2;

const newConsent = z.object({
  type: z.union([z.literal(TERMS_OF_USE), z.literal(MARKETING)]),
  /** 0 declined, 1 given */
  value: z.union([z.literal(0), z.literal(1)]),
  /** The client that asked, e.g. `Webapp 2024.01.01`, `iOS 3.110`, `Android 4.6` */
  source: z.string().min(1).max(256),
});

const consentResults = z.object({
  results: z.array(z.object({ type: z.int(), value: z.int(), source: z.string() })),
});

export const getConsent = endpoint(
  {
    name: 'get-self-consent',
    method: 'get',
    path: '/self/consent',
    hide: true,
    responses: { 200: { description: "The user's latest answer per consent type", ...json(consentResults) } },
  },
  async (c) => c.json({ results: await accountObject(c.env, self(c).user).consentList(self(c).user) }, 200),
);

export const putConsent = endpoint(
  {
    name: 'put-self-consent',
    method: 'put',
    path: '/self/consent',
    hide: true,
    request: jsonBody(newConsent),
    responses: { 200: { description: 'Consent recorded' } },
  },
  async (c) => {
    await accountObject(c.env, self(c).user).setConsent(self(c).user, c.req.valid('json'));
    return c.body(null, 200);
  },
);
