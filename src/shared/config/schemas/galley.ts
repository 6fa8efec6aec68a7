import { z } from 'zod';
import {
  disabledApiVersions,
  federationDomain,
  httpUrl,
  passwordHashingOptions,
  passwordHashingRateLimit,
  positiveInt,
  protocol,
} from './common.js';
import { featureFlags } from './galley-features.js';

/** Signature schemes that each need a removal key for MLS (seed "Other galley settings"). */
const MLS_SIGNATURE_SCHEMES = [
  'ed25519',
  'ecdsa_secp256r1_sha256',
  'ecdsa_secp384r1_sha384',
  'ecdsa_secp521r1_sha512',
] as const;

const keyPath = z.string().min(1);
const mlsPrivateKeyPaths = z.strictObject({
  removal: z.strictObject(
    Object.fromEntries(MLS_SIGNATURE_SCHEMES.map((s) => [s, keyPath])) as Record<
      (typeof MLS_SIGNATURE_SCHEMES)[number],
      typeof keyPath
    >,
  ),
});

const ONE_YEAR_SECONDS = 31_536_000;
/** wire-server's cap on any fan-out list. */
const HARD_TRUNCATION_LIMIT = 2000;

const settings = z
  .strictObject({
    federationDomain,
    disabledAPIVersions: disabledApiVersions,
    federationProtocols: z.array(protocol).default(['proteus', 'mls']),
    conversationCodeURI: httpUrl.optional(),
    multiIngress: z.record(z.string().min(1), httpUrl).optional(),
    guestLinkTTLSeconds: z
      .int()
      .gt(0, 'must be greater than 0')
      .max(ONE_YEAR_SECONDS, `must be at most ${ONE_YEAR_SECONDS} (one year)`)
      .default(604800),
    maxConvSize: positiveInt.default(500),
    maxTeamSize: positiveInt.default(10000),
    /** Most users one broadcast may reach: at most wire-server's hard truncation limit, 2000, its default. */
    maxFanoutSize: positiveInt
      .max(HARD_TRUNCATION_LIMIT, `must be at most ${HARD_TRUNCATION_LIMIT}`)
      .default(HARD_TRUNCATION_LIMIT),
    exposeInvitationURLsTeamAllowlist: z.array(z.uuid()).default([]),
    mlsPrivateKeyPaths: mlsPrivateKeyPaths.optional(),
    passwordHashingOptions: passwordHashingOptions.default({ algorithm: 'scrypt' }),
    passwordHashingRateLimit,
    featureFlags,
  })
  .superRefine((s, ctx) => {
    if (s.conversationCodeURI !== undefined && s.multiIngress !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['multiIngress'],
        message: 'settings.multiIngress and settings.conversationCodeURI are mutually exclusive',
      });
  });

export const galleyConfig = z.strictObject({
  enableFederation: z.boolean(),
  settings,
});
