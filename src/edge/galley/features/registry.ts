import { z } from 'zod';
import type { Config } from '../../../shared/config/index.js';
import { protocol } from '../../../shared/config/schemas/common.js';
import { ACME_DISCOVERY } from '../../../shared/config/schemas/galley-features.js';

export type FeatureStatus = 'enabled' | 'disabled';
export type LockStatus = 'locked' | 'unlocked';

/** A team feature as the API shows it; `ttl` is always "unlimited" (TTLs can no longer be set). */
export interface LockableFeature {
  status: FeatureStatus;
  lockStatus: LockStatus;
  ttl: 'unlimited';
  config?: Record<string, unknown>;
}

type Flags = Config['galley']['settings']['featureFlags'];

export interface FeatureDef {
  /** The server's value for teams that never changed it, and for personal users. */
  serverDefault(flags: Flags): LockableFeature;
  /** Team admins may change it through `PUT /teams/{tid}/features/{name}`. */
  teamSettable: boolean;
  /** The shape of `config` in change requests (features that have a config). */
  config?: z.ZodType<Record<string, unknown>>;
}

const feature = (status: FeatureStatus, lockStatus: LockStatus, config?: Record<string, unknown>): LockableFeature => ({
  status,
  lockStatus,
  ttl: 'unlimited',
  ...(config === undefined ? {} : { config }),
});

/** wire-server's built-in default (status and lock), with what galley's configuration sets. */
function fromDefaults(
  status: FeatureStatus,
  lock: LockStatus,
  pick: (
    f: Flags,
  ) => { defaults: { status: FeatureStatus; lockStatus?: LockStatus | undefined; config?: unknown } } | undefined,
  withConfig?: Record<string, unknown>,
): (flags: Flags) => LockableFeature {
  return (flags) => {
    const d = pick(flags)?.defaults;
    const config = d?.config === undefined ? withConfig : { ...withConfig, ...(d.config as Record<string, unknown>) };
    return feature(d?.status ?? status, d?.lockStatus ?? lock, config);
  };
}

/** mlsE2EId's config as wire renders it: URLs that are not set are left out, useProxyOnMobile is false unless set. */
function withoutNullUrls(config: Record<string, unknown>): Record<string, unknown> {
  const { acmeDiscoveryUrl, crlProxy, useProxyOnMobile, ...rest } = config;
  return {
    ...rest,
    ...(acmeDiscoveryUrl == null ? {} : { acmeDiscoveryUrl }),
    ...(crlProxy == null ? {} : { crlProxy }),
    useProxyOnMobile: useProxyOnMobile ?? false,
  };
}

const channelRole = z.enum(['everyone', 'team-members', 'admins']);

/** The mls config as teams send it; the protocol rules are checked in rules.ts with their own labels. */
const mlsFeatureConfig = z.strictObject({
  protocolToggleUsers: z.array(z.uuid()).default([]),
  defaultProtocol: protocol,
  supportedProtocols: z.array(protocol).min(1),
  allowedCipherSuites: z.array(z.int().positive()).min(1),
  defaultCipherSuite: z.int().positive(),
});

/** The features of the API contract (`AllTeamFeatures`), in the contract's order. */
const FEATURES = {
  legalhold: { teamSettable: true, serverDefault: () => feature('disabled', 'unlocked') },
  sso: {
    teamSettable: false,
    serverDefault: (f) => feature(f.sso === 'enabled-by-default' ? 'enabled' : 'disabled', 'unlocked'),
  },
  searchVisibility: {
    teamSettable: true,
    serverDefault: (f) => feature(f.teamSearchVisibility === 'enabled-by-default' ? 'enabled' : 'disabled', 'unlocked'),
  },
  searchVisibilityInbound: {
    teamSettable: true,
    serverDefault: fromDefaults('disabled', 'unlocked', (f) => f.searchVisibilityInbound),
  },
  validateSAMLemails: {
    teamSettable: false,
    serverDefault: fromDefaults('enabled', 'unlocked', (f) => f.validateSAMLemails),
  },
  digitalSignatures: {
    teamSettable: false,
    serverDefault: fromDefaults('disabled', 'unlocked', (f) => f.digitalSignatures),
  },
  appLock: {
    teamSettable: true,
    serverDefault: fromDefaults('enabled', 'unlocked', (f) => f.appLock, {
      enforceAppLock: false,
      inactivityTimeoutSecs: 60,
    }),
    config: z.strictObject({ enforceAppLock: z.boolean(), inactivityTimeoutSecs: z.int() }),
  },
  fileSharing: { teamSettable: true, serverDefault: fromDefaults('enabled', 'unlocked', (f) => f.fileSharing) },
  classifiedDomains: {
    teamSettable: false,
    serverDefault: (f) =>
      feature(f.classifiedDomains.status, 'unlocked', { domains: f.classifiedDomains.config.domains }),
  },
  conferenceCalling: {
    teamSettable: true,
    serverDefault: fromDefaults('enabled', 'locked', (f) => f.conferenceCalling, { useSFTForOneToOneCalls: false }),
    config: z.strictObject({ useSFTForOneToOneCalls: z.boolean() }),
  },
  selfDeletingMessages: {
    teamSettable: true,
    serverDefault: fromDefaults('enabled', 'unlocked', (f) => f.selfDeletingMessages, { enforcedTimeoutSeconds: 0 }),
    config: z.strictObject({ enforcedTimeoutSeconds: z.int().min(0) }),
  },
  conversationGuestLinks: {
    teamSettable: true,
    serverDefault: fromDefaults('enabled', 'unlocked', (f) => f.conversationGuestLinks),
  },
  sndFactorPasswordChallenge: {
    teamSettable: true,
    serverDefault: fromDefaults('disabled', 'locked', (f) => f.sndFactorPasswordChallenge),
  },
  mls: {
    teamSettable: true,
    serverDefault: fromDefaults('disabled', 'unlocked', (f) => f.mls),
    config: mlsFeatureConfig,
  },
  exposeInvitationURLsToTeamAdmin: {
    teamSettable: true,
    serverDefault: fromDefaults('disabled', 'locked', (f) => f.exposeInvitationURLsToTeamAdmin),
  },
  outlookCalIntegration: {
    teamSettable: true,
    serverDefault: fromDefaults('disabled', 'locked', (f) => f.outlookCalIntegration),
  },
  mlsE2EId: {
    teamSettable: true,
    serverDefault: (flags) => {
      const f = fromDefaults('disabled', 'locked', (x) => x.mlsE2EId, {
        verificationExpiration: 86400,
        useProxyOnMobile: false,
      })(flags);
      return { ...f, config: withoutNullUrls(f.config ?? {}) };
    },
    config: z
      .strictObject({
        verificationExpiration: z.int().positive(),
        // null stands for absent (and for false), as wire reads these two
        acmeDiscoveryUrl: z.string().regex(ACME_DISCOVERY).nullish(),
        crlProxy: z.url().optional(),
        useProxyOnMobile: z.boolean().nullish(),
      })
      .transform(withoutNullUrls),
  },
  mlsMigration: {
    teamSettable: true,
    serverDefault: fromDefaults('disabled', 'locked', (f) => f.mlsMigration, {}),
    config: z.strictObject({
      startTime: z.iso.datetime().optional(),
      finaliseRegardlessAfter: z.iso.datetime().optional(),
    }),
  },
  enforceFileDownloadLocation: {
    teamSettable: true,
    serverDefault: fromDefaults('disabled', 'locked', (f) => f.enforceFileDownloadLocation, {}),
    config: z.strictObject({ enforcedDownloadLocation: z.string().optional() }),
  },
  limitedEventFanout: {
    teamSettable: false,
    serverDefault: fromDefaults('disabled', 'unlocked', (f) => f.limitedEventFanout),
  },
  domainRegistration: {
    teamSettable: false,
    serverDefault: fromDefaults('disabled', 'locked', (f) => f.domainRegistration),
  },
  channels: {
    teamSettable: true,
    serverDefault: fromDefaults('disabled', 'locked', (f) => f.channels, {
      allowed_to_create_channels: 'team-members',
      allowed_to_open_channels: 'team-members',
    }),
    config: z.strictObject({ allowed_to_create_channels: channelRole, allowed_to_open_channels: channelRole }),
  },
  cells: { teamSettable: true, serverDefault: fromDefaults('disabled', 'locked', (f) => f.cells) },
} satisfies Record<string, FeatureDef>;

export type FeatureName = keyof typeof FEATURES;
export const FEATURE_NAMES = Object.keys(FEATURES) as FeatureName[];
export const featureDef = (n: FeatureName): FeatureDef => FEATURES[n];
