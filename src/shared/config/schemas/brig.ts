import { z } from 'zod';
import {
  disabledApiVersions,
  federationDomain,
  httpUrl,
  passwordHashingOptions,
  passwordHashingRateLimit,
  positiveInt,
} from './common.js';

const locale = z.string().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z]{2})?$/, 'must be a locale such as en or de-CH');
const featureStatus = z.strictObject({ status: z.enum(['enabled', 'disabled']) });

/** The SFT credential: its lifetime and the file holding the secret shared with the SFT servers. */
const sftToken = z.strictObject({ ttl: positiveInt, secret: z.string().min(1) });

/**
 * TURN servers and their credentials. `files`: the lists are files of `turn[s]:host:port[?transport=udp|tcp]`
 * lines (`servers` for /calls/config, `serversV2` for /calls/config/v2); `dns`: discovered from
 * `_turn._udp`, `_turn._tcp` and `_turns._tcp` SRV records below `baseDomain`.
 */
const turn = z.discriminatedUnion('serversSource', [
  z.strictObject({
    serversSource: z.literal('files'),
    servers: z.string().min(1),
    serversV2: z.string().min(1),
    secret: z.string().min(1),
    tokenTTL: positiveInt,
    configTTL: positiveInt,
  }),
  z.strictObject({
    serversSource: z.literal('dns'),
    baseDomain: federationDomain,
    discoveryIntervalSeconds: positiveInt.default(10),
    secret: z.string().min(1),
    tokenTTL: positiveInt,
    configTTL: positiveInt,
  }),
]);

export const searchPolicy = z.enum(['no_search', 'exact_handle_search', 'full_search']);

const optSettings = z
  .strictObject({
    setFederationDomain: federationDomain,
    setFederationStrategy: z.enum(['allowNone', 'allowAll', 'allowList', 'allowDynamic']),
    setFederationDomainConfigs: z
      .array(z.strictObject({ domain: federationDomain, search_policy: searchPolicy }))
      .default([]),
    setFederationDomainConfigsUpdateFreq: positiveInt.default(10),
    setDisabledAPIVersions: disabledApiVersions,
    setEnableMLS: z.boolean().default(false),
    setKeyPackageMaximumLifetime: positiveInt.optional(),
    setDefaultTemplateLocale: locale.default('en'),
    setDefaultUserLocale: locale.optional(),
    /** Deprecated and ignored; the loader warns when it is present. */
    setDefaultLocale: z.string().optional(),
    setRestrictUserCreation: z.boolean().default(false),
    setEphemeralUserCreationEnabled: z.boolean().default(true),
    setOAuthEnabled: z.boolean().default(false),
    /** Seconds an authorization code lives (brig's spelling; the chart's is setOAuthAuthCodeExpirationTimeSecs). */
    setOAuthAuthorizationCodeExpirationTimeSecs: positiveInt.optional(),
    setOAuthAuthCodeExpirationTimeSecs: positiveInt.optional(),
    setOAuthAccessTokenExpirationTimeSecs: positiveInt.default(1814400),
    setOAuthRefreshTokenExpirationTimeSecs: positiveInt.default(14515200),
    /** Live refresh tokens per user, over all applications; the oldest go first. */
    setOAuthMaxActiveRefreshTokens: positiveInt.default(10),
    /** File of the Ed25519 key pair (JWK) signing OAuth tokens; nginz's oauth_pub_key is its public half. */
    setOAuthJwkKeyPair: z.string().min(1).optional(),
    /** End-to-end identity: seconds of clock skew a DPoP proof may show. */
    setDpopMaxSkewSecs: positiveInt.default(1),
    /** Seconds a DPoP access token is valid (its `expires_in`); a proof may not outlive it. */
    setDpopTokenExpirationTimeSecs: positiveInt.default(30),
    /** Seconds a DPoP nonce (`Replay-Nonce`) waits for its proof. */
    setNonceTtlSecs: positiveInt.default(300),
    setSftStaticUrl: httpUrl.optional(),
    setSftListAllServers: z.enum(['enabled', 'disabled']).default('disabled'),
    setFeatureFlags: z
      .strictObject({
        // The block may be omitted, but not parts of it.
        conferenceCalling: z
          .strictObject({
            defaultForNew: featureStatus.nullable(),
            defaultForNull: featureStatus,
          })
          .optional(),
      })
      .default({}),
    setPasswordHashingOptions: passwordHashingOptions.default({ algorithm: 'scrypt' }),
    setPasswordHashingRateLimit: passwordHashingRateLimit,
    /** Where audit mails of domain registration changes go (none are sent without it). */
    setAuditLogEmailRecipient: z.email().optional(),
    /** Seconds a domain verification challenge waits for its DNS record. */
    setChallengeTTL: positiveInt.default(604800),
    /** Lifetime of email activation codes (seconds). */
    setActivationTimeout: positiveInt.default(1209600),
    setTeamInvitationTimeout: positiveInt.default(1814400),
    /** Lifetime of second-factor verification codes (seconds). */
    setVerificationTimeout: positiveInt.default(600),
    /** A new second-factor code can be requested this many seconds after the previous one. */
    set2FACodeGenerationDelaySecs: positiveInt.default(300),
    /** Local development only: cookies without the `Secure` attribute, so they travel over http. */
    setCookieInsecure: z.boolean().default(false),
    /** Live cookies per user and cookie type (persistent, session); issuing one evicts the oldest beyond. */
    setUserCookieLimit: positiveInt.default(32),
    /**
     * A login that would evict a cookie is refused (429, `Retry-After`) while the creation times of
     * the user's cookies of that type have a standard deviation of at most `stdDev` seconds and the
     * newest is under `retryAfter` seconds old.
     */
    setUserCookieThrottle: z
      .strictObject({ stdDev: z.number().nonnegative(), retryAfter: z.int().nonnegative() })
      .default({ stdDev: 3000, retryAfter: 86400 }),
    /** A cookie older than this (seconds) is replaced by a successor when used at `/access`. */
    setUserCookieRenewAge: positiveInt.default(1209600),
    /** Failed logins: after `retryLimit` failures within `timeout` seconds, logins are refused until it passes. */
    setLimitFailedLogins: z.strictObject({ timeout: positiveInt, retryLimit: positiveInt }).optional(),
    setUserMaxPermClients: positiveInt.default(7),
    setUserMaxConnections: positiveInt.default(1000),
    setMaxConvSize: positiveInt.default(500),
    setPropertyMaxKeyLen: positiveInt.default(1024),
    setPropertyMaxValueLen: positiveInt.default(524288),
    setMaxProperties: positiveInt.default(16),
    /** Characters (types and values together) a user's rich info may hold. */
    setRichInfoLimit: positiveInt.default(5000),
    /** Who sees `email` in user profiles; `GET /self` always shows one's own. */
    setEmailVisibility: z
      .enum(['visible_to_self', 'visible_if_on_team', 'visible_if_on_same_team'])
      .default('visible_to_self'),
  })
  .superRefine((o, ctx) => {
    if (
      o.setOAuthAuthorizationCodeExpirationTimeSecs !== undefined &&
      o.setOAuthAuthCodeExpirationTimeSecs !== undefined
    )
      ctx.addIssue({
        code: 'custom',
        path: ['setOAuthAuthCodeExpirationTimeSecs'],
        message: 'given twice: keep either this or setOAuthAuthorizationCodeExpirationTimeSecs',
      });
    if (o.setOAuthEnabled && o.setOAuthJwkKeyPair === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['setOAuthJwkKeyPair'],
        message: 'required with setOAuthEnabled: the key pair that signs OAuth tokens',
      });
    const listed = o.setFederationDomainConfigs.length > 0;
    if (o.setFederationStrategy === 'allowNone' && listed)
      ctx.addIssue({
        code: 'custom',
        path: ['setFederationDomainConfigs'],
        message: 'allowNone federates with nobody: the list must be empty (use allowList)',
      });
  });

/** Access tokens and cookies (wire-server's zauth); the signing keys are the ZAUTH_KEYS secret. */
const zauth = z.strictObject({
  /** 1-based index of the signing key in ZAUTH_KEYS; every listed key still verifies. */
  keyIndex: positiveInt.default(1),
  accessTokenTimeout: positiveInt.default(900),
  userTokenTimeout: positiveInt.default(4838400),
  sessionTokenTimeout: positiveInt.default(86400),
  /** Lifetime of a service provider's token (its `zprovider` cookie), in seconds. */
  providerTokenTimeout: positiveInt.default(900),
});

/** How mail leaves: kept in the outbox (local; readable at /mailbox with basic auth), POSTed to an HTTP API, or sent over SMTP. */
const mailDelivery = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('outbox'),
    mailbox: z.strictObject({ username: z.string().min(1), password: z.string().min(8) }).optional(),
  }),
  z.strictObject({
    type: z.literal('http'),
    url: httpUrl,
    /** Sent as the Authorization header, e.g. `Bearer <key>`. */
    authorization: z.string().min(1).optional(),
  }),
  z.strictObject({
    type: z.literal('smtp'),
    host: z.string().min(1),
    port: z.int().min(1).max(65535),
    /** TLS from the first byte (port 465) */
    secure: z.boolean().default(false),
    /** Upgrade with STARTTLS (port 587) */
    startTls: z.boolean().default(true),
    credentials: z.strictObject({ username: z.string().min(1), password: z.string().min(1) }).optional(),
  }),
]);

const teamEmailUrls = z.strictObject({
  tInvitationUrl: z.string().min(1),
  tExistingUserInvitationUrl: z.string().min(1),
  tActivationUrl: z.string().min(1),
  tCreatorWelcomeUrl: z.string().min(1),
  tMemberWelcomeUrl: z.string().min(1),
});

export const brigConfig = z
  .strictObject({
    enableFederation: z.boolean(),
    optSettings,
    zauth: zauth.default({
      keyIndex: 1,
      accessTokenTimeout: 900,
      userTokenTimeout: 4838400,
      sessionTokenTimeout: 86400,
      providerTokenTimeout: 900,
    }),
    emailSMS: z.strictObject({
      general: z.strictObject({ emailSender: z.email(), templateDir: z.string().optional() }),
      team: teamEmailUrls.optional(),
      delivery: mailDelivery.default({ type: 'outbox' }),
    }),
    externalUrls: z.strictObject({
      nginz: httpUrl,
      teamSettings: httpUrl.optional(),
      accountPages: httpUrl.optional(),
      teamCreatorWelcome: httpUrl.optional(),
      teamMemberWelcome: httpUrl.optional(),
    }),
    turn,
    /** DNS over HTTPS (RFC 8484): how brig resolves SRV and TXT records (SFT and TURN discovery, domain verification). */
    dnsOverHttpsUrl: httpUrl.default('https://cloudflare-dns.com/dns-query'),
    sft: z
      .strictObject({
        sftBaseDomain: federationDomain,
        sftSRVServiceName: z.string().min(1).default('sft'),
        sftDiscoveryIntervalSeconds: positiveInt.default(10),
        sftListLength: z.int().min(1).max(100).default(5),
        sftToken: sftToken.optional(),
      })
      .optional(),
    // brig's own spelling is a boolean; the chart's (and the seed's) `multiSFT.enabled`.
    multiSFT: z
      .union([z.boolean(), z.strictObject({ enabled: z.boolean().optional() })])
      .transform((v) => (typeof v === 'boolean' ? v : v.enabled))
      .optional(),
    /** The seed's place of the SFT credential settings; brig's own is `sft.sftToken`. */
    sftToken: sftToken.optional(),
    secrets: z.strictObject({ dpopSigKeyBundle: z.string().min(1).optional() }).default({}),
  })
  .superRefine((c, ctx) => {
    if (c.optSettings.setSftStaticUrl !== undefined && c.sft !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['optSettings', 'setSftStaticUrl'],
        message: 'setSftStaticUrl (HTTP-based SFT) and sft (SRV-based SFT) are mutually exclusive',
      });
    if (c.sftToken !== undefined && c.sft?.sftToken !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['sftToken'],
        message: 'given twice: keep either sftToken or sft.sftToken',
      });
    if (c.emailSMS?.team === undefined && c.externalUrls.accountPages === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['externalUrls', 'accountPages'],
        message:
          'required when emailSMS.team is absent: invitation URLs for personal users point below the account pages',
      });
  });
