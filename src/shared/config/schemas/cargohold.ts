import { z } from 'zod';
import { disabledApiVersions, federationDomain, httpUrl, positiveInt } from './common.js';

const MIB = 1024 * 1024;

/** Object storage credentials come from the environment (secrets), never from this file. */
export const cargoholdConfig = z.strictObject({
  enableFederation: z.boolean(),
  objstore: z.strictObject({
    endpoint: httpUrl,
    downloadEndpoint: httpUrl.optional(),
    bucket: z.string().min(3).max(63),
    region: z.string().min(1).default('us-east-1'),
    /** Z-Host value → download endpoint; when set, `downloadEndpoint` is ignored. */
    multiIngress: z.record(z.string().min(1), httpUrl).optional(),
  }),
  settings: z.strictObject({
    federationDomain,
    disabledAPIVersions: disabledApiVersions,
    maxTotalBytes: positiveInt.default(100 * MIB),
    maxTotalBytesPersonal: positiveInt.default(25 * MIB),
    downloadLinkTTL: positiveInt.default(300),
  }),
});

export type CargoholdConfig = z.infer<typeof cargoholdConfig>;
