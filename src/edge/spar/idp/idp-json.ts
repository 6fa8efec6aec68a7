import { z } from '@hono/zod-openapi';
import { keyInfoXml } from './certificates.js';
import type { IdpRow } from './idp-store.js';

export const idpConfig = z
  .object({
    id: z.uuid(),
    metadata: z
      .object({ issuer: z.string(), requestURI: z.string(), certAuthnResponse: z.array(z.string()) })
      .openapi('IdPMetadata'),
    extraInfo: z
      .object({
        team: z.uuid(),
        apiVersion: z.enum(['WireIdPAPIV1', 'WireIdPAPIV2']).nullable(),
        oldIssuers: z.array(z.string()),
        replacedBy: z.uuid().nullable(),
        handle: z.string(),
      })
      .openapi('WireIdP'),
  })
  .openapi('IdPConfig_WireIdP');

export function idpJson(row: IdpRow): z.infer<typeof idpConfig> {
  return {
    id: row.id,
    metadata: { issuer: row.issuer, requestURI: row.requestUri, certAuthnResponse: row.certs.map(keyInfoXml) },
    extraInfo: {
      team: row.team,
      apiVersion: row.apiVersion === 2 ? 'WireIdPAPIV2' : 'WireIdPAPIV1',
      oldIssuers: row.oldIssuers,
      replacedBy: row.replacedBy,
      handle: row.handle,
    },
  };
}
