import { z } from 'zod';
import { disabledApiVersions, httpUrl, positiveInt } from './common.js';

export const cannonConfig = z.strictObject({
  disabledAPIVersions: disabledApiVersions,
  drainOpts: z.strictObject({ gracePeriodSeconds: positiveInt.default(30) }).default({ gracePeriodSeconds: 30 }),
});

/** A third-party API's host, for tests or a mirror (wire's `{host, port}`). */
const upstream = z.strictObject({ host: z.string().min(1), port: z.int().min(1).max(65535) });

export const proxyConfig = z.strictObject({
  disabledAPIVersions: disabledApiVersions,
  /** The secrets file (`secrets { giphy = "…" … }`), as wire's proxy requires. */
  secretsConfig: z.string().min(1),
  giphyEndpoint: upstream.default({ host: 'api.giphy.com', port: 443 }),
  youtubeEndpoint: upstream.default({ host: 'www.googleapis.com', port: 443 }),
  googleMapsEndpoint: upstream.default({ host: 'www.googleapis.com', port: 443 }),
  spotifyEndpoint: upstream.default({ host: 'accounts.spotify.com', port: 443 }),
  soundcloudEndpoint: upstream.default({ host: 'api.soundcloud.com', port: 443 }),
  /** Plain HTTP to the upstreams: only for tests against local servers. */
  disableTlsForTest: z.boolean().default(false),
});

const contact = z.strictObject({
  type: z.enum(['ContactTechnical', 'ContactSupport', 'ContactAdministrative', 'ContactBilling', 'ContactOther']),
  company: z.string().optional(),
  givenName: z.string().optional(),
  surname: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
});

const serviceProvider = z.strictObject({
  spAppUri: httpUrl,
  spSsoUri: httpUrl,
  /** Shown in the SP metadata. */
  contacts: z.array(contact).default([]),
});

/** A domain's service provider; its SCIM base URI, when it differs from the top-level one. */
const domainServiceProvider = serviceProvider.extend({ scimBaseUri: httpUrl.optional() });

type Raw = Record<string, unknown>;
const isRaw = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The chart's names of a service provider's settings: `appUri` and `ssoUri`. */
function spFromChart(raw: unknown): unknown {
  if (!isRaw(raw) || !('appUri' in raw || 'ssoUri' in raw)) return raw;
  const { appUri, ssoUri, ...rest } = raw;
  return { spAppUri: appUri, spSsoUri: ssoUri, ...rest };
}

/**
 * spar's file, or the chart's values for it: top-level `appUri`, `ssoUri` and `contacts` are the
 * single domain's service provider, and a `scimBaseUri` left out is the `ssoUri` with its path
 * replaced by `/scim/v2` (the chart's rule; the spar file itself must name it).
 */
function scimBaseFromSso(ssoUri: string): string | undefined {
  try {
    return new URL('/scim/v2', ssoUri).href;
  } catch {
    return undefined; // ssoUri's own check names the problem
  }
}

function fromChartValues(raw: unknown): unknown {
  if (!isRaw(raw)) return raw;
  const { appUri, ssoUri, contacts, ...rest } = raw;
  const out: Raw = { ...rest };
  if (appUri !== undefined || ssoUri !== undefined) {
    out.saml = { spAppUri: appUri, spSsoUri: ssoUri, ...(contacts === undefined ? {} : { contacts }) };
    if (out.scimBaseUri === undefined && typeof ssoUri === 'string') out.scimBaseUri = scimBaseFromSso(ssoUri);
  } else if (contacts !== undefined) out.contacts = contacts;
  if (isRaw(out.domainConfigs))
    out.domainConfigs = Object.fromEntries(Object.entries(out.domainConfigs).map(([d, sp]) => [d, spFromChart(sp)]));
  return out;
}

export const sparConfig = z.preprocess(
  fromChartValues,
  z
    .strictObject({
      disabledAPIVersions: disabledApiVersions,
      saml: serviceProvider.optional(),
      /** Multi-ingress: domain (Z-Host) → service provider settings, replacing the single `saml` block. */
      domainConfigs: z.record(z.string().min(1), domainServiceProvider).optional(),
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
    }),
);

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
