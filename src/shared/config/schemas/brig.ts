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
    setOAuthEnabled: z.boolean().default(false),
    setOAuthAuthCodeExpirationTimeSecs: positiveInt.optional(),
    setOAuthAccessTokenExpirationTimeSecs: positiveInt.optional(),
    setOAuthRefreshTokenExpirationTimeSecs: positiveInt.optional(),
    setOAuthMaxActiveRefreshTokens: positiveInt.optional(),
    setOAuthJwkKeyPair: z.string().min(1).optional(),
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
    setEnterpriseLoginAuditEmail: z.email().optional(),
  })
  .superRefine((o, ctx) => {
    const listed = o.setFederationDomainConfigs.length > 0;
    if (o.setFederationStrategy === 'allowNone' && listed)
      ctx.addIssue({
        code: 'custom',
        path: ['setFederationDomainConfigs'],
        message: 'allowNone federates with nobody: the list must be empty (use allowList)',
      });
  });

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
    emailSMS: z
      .strictObject({
        general: z.strictObject({ emailSender: z.email(), templateDir: z.string().optional() }),
        team: teamEmailUrls.optional(),
      })
      .optional(),
    externalUrls: z.strictObject({
      nginz: httpUrl,
      teamSettings: httpUrl.optional(),
      accountPages: httpUrl.optional(),
      teamCreatorWelcome: httpUrl.optional(),
      teamMemberWelcome: httpUrl.optional(),
    }),
    sft: z
      .strictObject({
        sftBaseDomain: federationDomain,
        sftSRVServiceName: z.string().min(1).default('sft'),
        sftDiscoveryIntervalSeconds: positiveInt.default(10),
        sftListLength: positiveInt.default(5),
      })
      .optional(),
    multiSFT: z.strictObject({ enabled: z.boolean().optional() }).optional(),
    sftToken: z.strictObject({ ttl: positiveInt, secret: z.string().min(1) }).optional(),
    secrets: z.strictObject({ dpopSigKeyBundle: z.string().min(1).optional() }).default({}),
  })
  .superRefine((c, ctx) => {
    if (c.optSettings.setSftStaticUrl !== undefined && c.sft !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['optSettings', 'setSftStaticUrl'],
        message: 'setSftStaticUrl (HTTP-based SFT) and sft (SRV-based SFT) are mutually exclusive',
      });
    if (c.emailSMS?.team === undefined && c.externalUrls.accountPages === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['externalUrls', 'accountPages'],
        message:
          'required when emailSMS.team is absent: invitation URLs for personal users point below the account pages',
      });
  });

export type BrigConfig = z.infer<typeof brigConfig>;
