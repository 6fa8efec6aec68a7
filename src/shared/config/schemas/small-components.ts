import { z } from 'zod';
import { disabledApiVersions, httpUrl, positiveInt } from './common.js';

/** cannon's `wsOpts`, in microseconds as wire's cannon reads them (20 s each by default). */
const TWENTY_SECONDS_US = 20_000_000;
const wsOpts = z.strictObject({
  /** How long an `/events` client may stay silent before cannon checks on it. */
  activityTimeout: positiveInt.default(TWENTY_SECONDS_US),
  /** How long the check then waits for an answer before closing with 1002 `inactivity`. */
  pongTimeout: positiveInt.default(TWENTY_SECONDS_US),
});

export const cannonConfig = z.strictObject({
  disabledAPIVersions: disabledApiVersions,
  drainOpts: z.strictObject({ gracePeriodSeconds: positiveInt.default(30) }).default({ gracePeriodSeconds: 30 }),
  wsOpts: wsOpts.default({ activityTimeout: TWENTY_SECONDS_US, pongTimeout: TWENTY_SECONDS_US }),
});

export const proxyConfig = z.strictObject({
  disabledAPIVersions: disabledApiVersions,
  secretsConfig: z.string().min(1).optional(),
});

const serviceProvider = z.strictObject({
  spAppUri: httpUrl,
  spSsoUri: httpUrl,
});

export const sparConfig = z
  .strictObject({
    disabledAPIVersions: disabledApiVersions,
    saml: serviceProvider.optional(),
    /** Multi-ingress: domain → service provider settings, replacing the single `saml` block. */
    domainConfigs: z.record(z.string().min(1), serviceProvider).optional(),
    scimBaseUri: httpUrl,
    maxScimTokens: positiveInt.default(8),
    /** Seconds an AuthnRequest may wait for its answer. */
    maxttlAuthreq: positiveInt.default(7200),
    /** Seconds an assertion's id is kept against replays, at most. */
    maxttlAuthresp: positiveInt.default(7200),
  })
  .superRefine((c, ctx) => {
    if (c.saml === undefined && c.domainConfigs === undefined)
      ctx.addIssue({ code: 'custom', path: ['saml'], message: 'one of saml or domainConfigs is required' });
    if (c.saml !== undefined && c.domainConfigs !== undefined)
      ctx.addIssue({ code: 'custom', path: ['domainConfigs'], message: 'domainConfigs replaces saml: set only one' });
  });

export const backgroundWorkerConfig = z.strictObject({
  enableFederation: z.boolean().default(false),
  backendNotificationPusher: z
    .strictObject({
      pushBackoffMinWait: positiveInt,
      pushBackoffMaxWait: positiveInt,
      remotesRefreshInterval: positiveInt,
    })
    .optional(),
});
