import { z } from 'zod';
import { federationDomain, nonNegativeInt, positiveInt, protocol } from './common.js';

/**
 * galley `settings.featureFlags` (seed "Team feature flags"): mandatory, every feature listed
 * (conferenceCalling alone may be omitted: the seed makes it enabled then), only allowed values.
 */
const status = z.enum(['enabled', 'disabled']);
const lockStatus = z.enum(['locked', 'unlocked']);

function defaults<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject({ defaults: z.strictObject({ status, ...shape }) });
}
const withLock = { lockStatus: lockStatus.optional() };

/** MLS cipher suites of RFC 9420 plus the post-quantum suite 0xf031. */
const MLS_CIPHER_SUITES = new Set([1, 2, 3, 4, 5, 6, 7, 0xf031]);
const cipherSuite = positiveInt.refine((n) => MLS_CIPHER_SUITES.has(n), {
  message: 'unknown MLS cipher suite index (1..7 or 61489 = 0xf031)',
});
const uuid = z.uuid();

const mlsConfig = z
  .strictObject({
    protocolToggleUsers: z.array(uuid).default([]),
    defaultProtocol: protocol,
    supportedProtocols: z.array(protocol).min(1),
    allowedCipherSuites: z.array(cipherSuite).min(1),
    defaultCipherSuite: cipherSuite,
  })
  .superRefine((c, ctx) => {
    if (!c.supportedProtocols.includes(c.defaultProtocol))
      ctx.addIssue({
        code: 'custom',
        path: ['supportedProtocols'],
        message: `must contain defaultProtocol "${c.defaultProtocol}"`,
      });
    if (!c.allowedCipherSuites.includes(c.defaultCipherSuite))
      ctx.addIssue({
        code: 'custom',
        path: ['allowedCipherSuites'],
        message: `must contain defaultCipherSuite ${c.defaultCipherSuite}`,
      });
  });

export const ACME_DISCOVERY = /^https:\/\/acme\.[^/]+\/acme\/[^/]+\/discovery$/;

const channelRole = z.enum(['everyone', 'team-members', 'admins']);

export const featureFlags = z
  .strictObject({
    sso: z.enum(['disabled-by-default', 'enabled-by-default']),
    legalhold: z.enum(['disabled-permanently', 'disabled-by-default']),
    teamSearchVisibility: z.enum(['disabled-by-default', 'enabled-by-default']),
    searchVisibilityInbound: defaults({}),
    exposeInvitationURLsToTeamAdmin: defaults(withLock),
    emailVisibility: z.enum(['visible_to_self', 'visible_if_on_team', 'visible_if_on_same_team']),
    classifiedDomains: z.strictObject({
      status,
      config: z.strictObject({ domains: z.array(federationDomain) }),
    }),
    conferenceCalling: defaults({
      ...withLock,
      config: z.strictObject({ useSFTForOneToOneCalls: z.boolean() }).optional(),
    }).optional(),
    fileSharing: defaults(withLock),
    validateSAMLemails: defaults({}),
    sndFactorPasswordChallenge: defaults(withLock),
    mls: z.strictObject({
      defaults: z.strictObject({ status, ...withLock, config: mlsConfig }),
      initialConfig: mlsConfig.optional(),
    }),
    mlsE2EId: defaults({
      ...withLock,
      config: z.strictObject({
        verificationExpiration: positiveInt.default(86400),
        acmeDiscoveryUrl: z
          .string()
          .regex(ACME_DISCOVERY, 'must look like https://acme.{backend_domain}/acme/{provisioner}/discovery')
          .nullable()
          .optional(),
        crlProxy: z.url().optional(),
        useProxyOnMobile: z.boolean().nullable().optional(),
      }),
    }),
    mlsMigration: defaults({
      ...withLock,
      config: z.strictObject({
        startTime: z.iso.datetime().optional(),
        finaliseRegardlessAfter: z.iso.datetime().optional(),
      }),
    }),
    channels: defaults({
      ...withLock,
      config: z.strictObject({
        allowed_to_create_channels: channelRole,
        allowed_to_open_channels: channelRole,
      }),
    }),
    limitedEventFanout: defaults({}),
    domainRegistration: defaults(withLock),
    cells: defaults({ ...withLock, config: z.record(z.string(), z.unknown()).optional() }),
    outlookCalIntegration: defaults(withLock),
    // also the seed's "custom feature flag" for some on-premises installations
    enforceFileDownloadLocation: defaults({
      ...withLock,
      config: z.strictObject({ enforcedDownloadLocation: z.string().min(1).optional() }),
    }),
    selfDeletingMessages: defaults({
      ...withLock,
      config: z.strictObject({ enforcedTimeoutSeconds: nonNegativeInt }),
    }),
    conversationGuestLinks: defaults(withLock),
    appLock: defaults({
      config: z.strictObject({
        enforceAppLock: z.boolean(),
        inactivityTimeoutSecs: z.int().min(30),
      }),
    }),
    digitalSignatures: defaults(withLock),
    consumableNotifications: defaults(withLock),
  })
  .superRefine((f, ctx) => {
    const mlsSupported = f.mls.defaults.config.supportedProtocols.includes('mls');
    if (f.mlsMigration.defaults.status === 'enabled' && !mlsSupported)
      ctx.addIssue({
        code: 'custom',
        path: ['mlsMigration', 'defaults', 'status'],
        message: 'mlsMigration can only be enabled when mls.defaults.config.supportedProtocols contains "mls"',
      });
  });
