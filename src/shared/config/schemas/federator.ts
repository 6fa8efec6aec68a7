import { z } from 'zod';
import { httpUrl, positiveInt } from './common.js';

const endpoint = z.strictObject({ host: z.string().min(1), port: z.int().min(1).max(65535) });

export const federatorConfig = z.strictObject({
  federatorInternal: endpoint.extend({
    // Where the worker reaches this face when that is not http://host:port: in production, the
    // HTTPS front (a tunnel, a reverse proxy) of a federator on another host.
    url: httpUrl.optional(),
  }),
  federatorExternal: endpoint,
  // The worker's internal ingress as a federator on another host reaches it: a host of the edge
  // worker where, with the secret FEDERATOR_INTERNAL_TOKEN, it serves the federator's calls only.
  workerInternal: httpUrl.optional(),
  optSettings: z
    .strictObject({
      useSystemCAStore: z.boolean(),
      remoteCAStore: z.string().min(1).optional(),
      clientCertificate: z.string().min(1).optional(),
      clientPrivateKey: z.string().min(1).optional(),
      tcpConnectionTimeout: positiveInt.default(5_000_000),
      dnsHost: z.string().min(1).optional(),
      dnsPort: z.int().min(1).max(65535).optional(),
    })
    .superRefine((o, ctx) => {
      if (o.clientCertificate !== undefined && o.clientPrivateKey === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['clientPrivateKey'],
          message: 'required when clientCertificate is set',
        });
      if (o.clientPrivateKey !== undefined && o.clientCertificate === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['clientPrivateKey'],
          message: 'a client private key without clientCertificate is an error',
        });
    }),
});
