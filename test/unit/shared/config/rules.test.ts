import { describe, expect, it } from 'vitest';
import { formatProblem, loadConfig, type Problem } from '../../../../src/shared/config/index.js';
import { DELETE, defaultTexts, editedTexts, type Edit } from '../../../helpers/config-files.js';

const G = 'galley.yaml';
const B = 'brig.yaml';
const flags = ['settings', 'featureFlags'];
const mlsConfig = [...flags, 'mls', 'defaults', 'config'];
const cache = { host: '127.0.0.1', port: 6379, version: 7 };

interface Refusal {
  rule: string;
  edits: Edit[];
  file: string;
  path: string;
  message: RegExp;
}

/** One case per rule of the seed that configuration can check statically. */
const refusals: Refusal[] = [
  {
    rule: 'featureFlags is mandatory',
    edits: [[G, flags, DELETE]],
    file: G,
    path: 'settings.featureFlags',
    message: /is required/,
  },
  {
    rule: 'every feature must be listed',
    edits: [[G, [...flags, 'fileSharing'], DELETE]],
    file: G,
    path: 'settings.featureFlags.fileSharing',
    message: /is required/,
  },
  {
    rule: 'only allowed values (sso)',
    edits: [[G, [...flags, 'sso'], 'maybe']],
    file: G,
    path: 'settings.featureFlags.sso',
    message: /disabled-by-default/,
  },
  {
    rule: 'only allowed values (legalhold)',
    edits: [[G, [...flags, 'legalhold'], 'enabled']],
    file: G,
    path: 'settings.featureFlags.legalhold',
    message: /disabled-permanently/,
  },
  {
    rule: 'only allowed values (channels roles)',
    edits: [[G, [...flags, 'channels', 'defaults', 'config', 'allowed_to_create_channels'], 'nobody']],
    file: G,
    path: 'settings.featureFlags.channels.defaults.config.allowed_to_create_channels',
    message: /team-members/,
  },
  {
    rule: 'removed mlsMigration thresholds',
    edits: [[G, [...flags, 'mlsMigration', 'defaults', 'config', 'usersThreshold'], 100]],
    file: G,
    path: 'settings.featureFlags.mlsMigration.defaults.config',
    message: /usersThreshold/,
  },
  {
    rule: 'supportedProtocols must contain defaultProtocol',
    edits: [
      [G, [...mlsConfig, 'defaultProtocol'], 'mls'],
      [G, [...mlsConfig, 'supportedProtocols'], ['proteus']],
    ],
    file: G,
    path: 'settings.featureFlags.mls.defaults.config.supportedProtocols',
    message: /defaultProtocol "mls"/,
  },
  {
    rule: 'allowedCipherSuites must contain defaultCipherSuite',
    edits: [[G, [...mlsConfig, 'defaultCipherSuite'], 1]],
    file: G,
    path: 'settings.featureFlags.mls.defaults.config.allowedCipherSuites',
    message: /defaultCipherSuite 1/,
  },
  {
    rule: 'mlsMigration needs mls supported',
    edits: [
      [G, [...flags, 'mlsMigration', 'defaults', 'status'], 'enabled'],
      [G, [...mlsConfig, 'supportedProtocols'], ['proteus']],
    ],
    file: G,
    path: 'settings.featureFlags.mlsMigration.defaults.status',
    message: /supportedProtocols/,
  },
  {
    rule: 'mlsE2EId acmeDiscoveryUrl shape',
    edits: [[G, [...flags, 'mlsE2EId', 'defaults', 'config', 'acmeDiscoveryUrl'], 'https://example.com/acme']],
    file: G,
    path: 'settings.featureFlags.mlsE2EId.defaults.config.acmeDiscoveryUrl',
    message: /discovery/,
  },
  {
    rule: 'guestLinkTTLSeconds > 0',
    edits: [[G, ['settings', 'guestLinkTTLSeconds'], 0]],
    file: G,
    path: 'settings.guestLinkTTLSeconds',
    message: /greater than 0/,
  },
  {
    rule: 'guestLinkTTLSeconds <= one year',
    edits: [[G, ['settings', 'guestLinkTTLSeconds'], 31536001]],
    file: G,
    path: 'settings.guestLinkTTLSeconds',
    message: /31536000/,
  },
  {
    rule: 'maxFanoutSize <= 2000 (hard truncation limit)',
    edits: [[G, ['settings', 'maxFanoutSize'], 2001]],
    file: G,
    path: 'settings.maxFanoutSize',
    message: /at most 2000/,
  },
  {
    rule: 'multiIngress and conversationCodeURI are exclusive',
    edits: [[G, ['settings', 'multiIngress'], { 'red.example.com': 'https://red.example.com/join/' }]],
    file: G,
    path: 'settings.multiIngress',
    message: /mutually exclusive/,
  },
  {
    rule: 'MLS removal keys need every scheme',
    edits: [[G, ['settings', 'mlsPrivateKeyPaths'], { removal: { ed25519: '/k/ed25519.pem' } }]],
    file: G,
    path: 'settings.mlsPrivateKeyPaths.removal.ecdsa_secp256r1_sha256',
    message: /is required/,
  },
  {
    rule: 'MLS enabled needs removal keys',
    edits: [
      [B, ['optSettings', 'setEnableMLS'], true],
      [G, ['settings', 'mlsPrivateKeyPaths'], DELETE],
    ],
    file: G,
    path: 'settings.mlsPrivateKeyPaths',
    message: /setEnableMLS/,
  },
  {
    rule: 'setSftStaticUrl and SRV SFT are exclusive',
    edits: [
      [B, ['optSettings', 'setSftStaticUrl'], 'https://sft.example.com'],
      [B, ['sft'], { sftBaseDomain: 'sft.example.com' }],
    ],
    file: B,
    path: 'optSettings.setSftStaticUrl',
    message: /mutually exclusive/,
  },
  {
    rule: 'turn is required',
    edits: [[B, ['turn'], DELETE]],
    file: B,
    path: 'turn',
    message: /is required/,
  },
  {
    rule: 'turn from DNS needs a base domain',
    edits: [[B, ['turn'], { serversSource: 'dns', secret: 's', tokenTTL: 1, configTTL: 1 }]],
    file: B,
    path: 'turn.baseDomain',
    message: /is required/,
  },
  {
    rule: 'sftToken given once',
    edits: [
      [B, ['sft'], { sftBaseDomain: 'sft.example.com', sftToken: { ttl: 1, secret: 'a' } }],
      [B, ['sftToken'], { ttl: 1, secret: 'b' }],
    ],
    file: B,
    path: 'sftToken',
    message: /given twice/,
  },
  {
    rule: 'sftListLength in 1..100',
    edits: [[B, ['sft'], { sftBaseDomain: 'sft.example.com', sftListLength: 101 }]],
    file: B,
    path: 'sft.sftListLength',
    message: /100/,
  },
  {
    rule: 'OAuth needs its key pair',
    edits: [[B, ['optSettings', 'setOAuthJwkKeyPair'], DELETE]],
    file: B,
    path: 'optSettings.setOAuthJwkKeyPair',
    message: /setOAuthEnabled/,
  },
  {
    rule: 'OAuth needs nginz to know the public key',
    edits: [['nginz.yaml', ['nginx_conf', 'oauth_pub_key'], DELETE]],
    file: 'nginz.yaml',
    path: 'nginx_conf.oauth_pub_key',
    message: /setOAuthEnabled/,
  },
  {
    rule: 'the code lifetime given in one spelling',
    edits: [[B, ['optSettings', 'setOAuthAuthCodeExpirationTimeSecs'], 60]],
    file: B,
    path: 'optSettings.setOAuthAuthCodeExpirationTimeSecs',
    message: /given twice/,
  },
  {
    rule: 'conferenceCalling block whole or absent',
    edits: [[B, ['optSettings', 'setFeatureFlags', 'conferenceCalling', 'defaultForNew'], DELETE]],
    file: B,
    path: 'optSettings.setFeatureFlags.conferenceCalling.defaultForNew',
    message: /is required/,
  },
  {
    rule: 'accountPages required without emailSMS.team',
    edits: [[B, ['externalUrls', 'accountPages'], DELETE]],
    file: B,
    path: 'externalUrls.accountPages',
    message: /emailSMS.team/,
  },
  {
    rule: 'CIDR exceptions need a prefix',
    edits: [[B, ['optSettings', 'setPasswordHashingRateLimit', 'ipAddressExceptions'], ['10.0.0.1']]],
    file: B,
    path: 'optSettings.setPasswordHashingRateLimit.ipAddressExceptions[0]',
    message: /\/32/,
  },
  {
    rule: 'password hashing algorithm',
    edits: [[B, ['optSettings', 'setPasswordHashingOptions', 'algorithm'], 'md5']],
    file: B,
    path: 'optSettings.setPasswordHashingOptions.algorithm',
    message: /argon2id/,
  },
  {
    rule: 'only allowed values (setEmailVisibility)',
    edits: [[B, ['optSettings', 'setEmailVisibility'], 'visible_to_all']],
    file: B,
    path: 'optSettings.setEmailVisibility',
    message: /visible_if_on_same_team/,
  },
  {
    rule: 'setUserCookieThrottle has both fields',
    edits: [[B, ['optSettings', 'setUserCookieThrottle'], { stdDev: 3000 }]],
    file: B,
    path: 'optSettings.setUserCookieThrottle.retryAfter',
    message: /is required/,
  },
  {
    rule: 'setRichInfoLimit > 0',
    edits: [[B, ['optSettings', 'setRichInfoLimit'], 0]],
    file: B,
    path: 'optSettings.setRichInfoLimit',
    message: />0/,
  },
  {
    rule: 'clientCertificate requires clientPrivateKey',
    edits: [
      ['federator.yaml', ['optSettings', 'clientCertificate'], '/c.pem'],
      ['federator.yaml', ['optSettings', 'clientPrivateKey'], DELETE],
    ],
    file: 'federator.yaml',
    path: 'optSettings.clientPrivateKey',
    message: /required when clientCertificate/,
  },
  {
    rule: 'a key without certificate is an error',
    edits: [
      ['federator.yaml', ['optSettings', 'clientPrivateKey'], '/k.pem'],
      ['federator.yaml', ['optSettings', 'clientCertificate'], DELETE],
    ],
    file: 'federator.yaml',
    path: 'optSettings.clientPrivateKey',
    message: /without clientCertificate/,
  },
  {
    rule: 'disabledAPIVersions present (brig)',
    edits: [[B, ['optSettings', 'setDisabledAPIVersions'], DELETE]],
    file: B,
    path: 'optSettings.setDisabledAPIVersions',
    message: /is required/,
  },
  {
    rule: 'disabledAPIVersions present (cannon)',
    edits: [['cannon.yaml', ['disabledAPIVersions'], DELETE]],
    file: 'cannon.yaml',
    path: 'disabledAPIVersions',
    message: /is required/,
  },
  {
    rule: 'disabledAPIVersions equal everywhere',
    edits: [['spar.yaml', ['disabledAPIVersions'], []]],
    file: 'spar.yaml',
    path: 'disabledAPIVersions',
    message: /must equal brig.yaml/,
  },
  {
    rule: 'disabledAPIVersions names known versions',
    edits: [['proxy.yaml', ['disabledAPIVersions'], ['v42']]],
    file: 'proxy.yaml',
    path: 'disabledAPIVersions[0]',
    message: /v42/,
  },
  {
    rule: 'federation domain present (cargohold)',
    edits: [['cargohold.yaml', ['settings', 'federationDomain'], DELETE]],
    file: 'cargohold.yaml',
    path: 'settings.federationDomain',
    message: /is required/,
  },
  {
    rule: 'federation domain equal',
    edits: [[G, ['settings', 'federationDomain'], 'other.example.com']],
    file: G,
    path: 'settings.federationDomain',
    message: /must equal brig.yaml/,
  },
  {
    rule: 'federation domain is DNS-shaped',
    edits: [[B, ['optSettings', 'setFederationDomain'], 'localhost']],
    file: B,
    path: 'optSettings.setFederationDomain',
    message: /DNS domain/,
  },
  {
    rule: 'galley emailVisibility agrees with brig',
    edits: [[G, ['settings', 'featureFlags', 'emailVisibility'], 'visible_if_on_team']],
    file: G,
    path: 'settings.featureFlags.emailVisibility',
    message: /must equal brig.yaml optSettings.setEmailVisibility "visible_to_self"/,
  },
  {
    rule: 'background-worker enableFederation agrees',
    edits: [['background-worker.yaml', ['enableFederation'], false]],
    file: 'background-worker.yaml',
    path: 'enableFederation',
    message: /must equal brig.yaml enableFederation true/,
  },
  {
    rule: 'cacheUsername absent below version 6',
    edits: [['gundeck.yaml', ['cache'], { ...cache, version: 5, cacheUsername: 'bob' }]],
    file: 'gundeck.yaml',
    path: 'cache.cacheUsername',
    message: /below version 6/,
  },
  {
    rule: 'cacheUsername not null below version 6',
    edits: [['gundeck.yaml', ['cache'], { ...cache, version: 5, cacheUsername: null }]],
    file: 'gundeck.yaml',
    path: 'cache.cacheUsername',
    message: /not null or empty/,
  },
  {
    rule: 'cacheUsername not empty below version 6',
    edits: [['gundeck.yaml', ['cache'], { ...cache, version: 5, cacheUsername: '' }]],
    file: 'gundeck.yaml',
    path: 'cache.cacheUsername',
    message: /not null or empty/,
  },
  {
    rule: 'cacheUsername default with legacy auth',
    edits: [['gundeck.yaml', ['cache'], { ...cache, legacyAuth: true, cacheUsername: 'bob' }]],
    file: 'gundeck.yaml',
    path: 'cache.cacheUsername',
    message: /"default"/,
  },
  {
    rule: 'native push names an AWS account',
    edits: [['gundeck.yaml', ['aws'], { account: 'wire', region: 'eu-west-1', arnEnv: 'prod' }]],
    file: 'gundeck.yaml',
    path: 'aws.account',
    message: /12 digits/,
  },
  {
    rule: 'spar scimBaseUri required',
    edits: [['spar.yaml', ['scimBaseUri'], DELETE]],
    file: 'spar.yaml',
    path: 'scimBaseUri',
    message: /is required/,
  },
  {
    rule: 'nginz zone must exist',
    edits: [['nginz.yaml', ['nginx_conf', 'locations', 2, 'specific_user_rate_limit'], 'nope']],
    file: 'nginz.yaml',
    path: 'nginx_conf.locations[2].specific_user_rate_limit',
    message: /nope/,
  },
  {
    rule: 'nginz rate syntax',
    edits: [['nginz.yaml', ['nginx_conf', 'rate_limit_zones', 'one2one_conv', 'rate'], 'fast']],
    file: 'nginz.yaml',
    path: 'nginx_conf.rate_limit_zones.one2one_conv.rate',
    message: /3000r\/m/,
  },
  {
    rule: 'unknown keys are refused, not ignored',
    edits: [[G, ['settings', 'guestLinkTTLSecond'], 5]],
    file: G,
    path: 'settings',
    message: /guestLinkTTLSecond/,
  },
];

describe('configuration refusals', () => {
  it('accepts the shipped configuration', () => {
    const r = loadConfig(defaultTexts());
    expect(r.ok ? [] : r.problems.map(formatProblem)).toEqual([]);
  });

  it.each(refusals)('$rule', ({ edits, file, path, message }) => {
    const r = loadConfig(editedTexts(edits));
    expect(r.ok).toBe(false);
    const problems: Problem[] = r.ok ? [] : r.problems;
    expect(problems).toContainEqual({ file, path, message: expect.stringMatching(message) });
  });

  it('reports every problem at once', () => {
    const r = loadConfig(
      editedTexts(
        refusals
          .slice(0, 12)
          .flatMap((c) => c.edits)
          .filter(([f]) => f !== G)
          .concat([
            [G, ['settings', 'guestLinkTTLSeconds'], 0],
            ['spar.yaml', ['scimBaseUri'], DELETE],
            ['federator.yaml', ['optSettings', 'clientPrivateKey'], '/k.pem'],
            ['federator.yaml', ['optSettings', 'clientCertificate'], DELETE],
          ]),
      ),
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(new Set(r.problems.map((p) => p.file))).toEqual(new Set([G, 'spar.yaml', 'federator.yaml']));
  });

  it('names a missing file and invalid YAML', () => {
    const texts = { ...defaultTexts(), 'proxy.yaml': undefined, 'cannon.yaml': 'disabledAPIVersions: [development' };
    const r = loadConfig(texts);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems).toContainEqual({ file: 'proxy.yaml', path: '', message: 'file is missing' });
      expect(r.problems).toContainEqual({
        file: 'cannon.yaml',
        path: '',
        message: expect.stringMatching(/invalid YAML/),
      });
    }
  });
});

describe('configuration accepted with notes', () => {
  it('ignores the deprecated setDefaultLocale with a warning', () => {
    const r = loadConfig(editedTexts([[B, ['optSettings', 'setDefaultLocale'], 'de']]));
    expect(r.ok).toBe(true);
    expect(r.warnings).toContainEqual({
      file: B,
      path: 'optSettings.setDefaultLocale',
      message: expect.stringMatching(/deprecated and ignored/),
    });
    if (r.ok) expect(r.config.brig.optSettings).not.toHaveProperty('setDefaultLocale');
  });

  it('allows omitting the conferenceCalling feature (enabled then)', () => {
    expect(loadConfig(editedTexts([[G, [...flags, 'conferenceCalling'], DELETE]])).ok).toBe(true);
  });

  it('allows omitting the brig conferenceCalling block as a whole', () => {
    expect(loadConfig(editedTexts([[B, ['optSettings', 'setFeatureFlags', 'conferenceCalling'], DELETE]])).ok).toBe(
      true,
    );
  });

  it('accepts guestLinkTTLSeconds of exactly one year', () => {
    expect(loadConfig(editedTexts([[G, ['settings', 'guestLinkTTLSeconds'], 31536000]])).ok).toBe(true);
  });

  it('accepts cacheUsername "default" with legacy auth from version 6, and a single address as /32', () => {
    const r = loadConfig(
      editedTexts([
        ['gundeck.yaml', ['cache'], { ...cache, version: 6, legacyAuth: true, cacheUsername: 'default' }],
        [B, ['optSettings', 'setPasswordHashingRateLimit', 'ipAddressExceptions'], ['10.0.0.1/32', 'fd00::/8']],
      ]),
    );
    expect(r.ok ? [] : r.problems.map(formatProblem)).toEqual([]);
  });

  it('accepts [] (all versions) and explicit versions when equal everywhere', () => {
    const files: [string, (string | number)[]][] = [
      [B, ['optSettings', 'setDisabledAPIVersions']],
      [G, ['settings', 'disabledAPIVersions']],
      ['cargohold.yaml', ['settings', 'disabledAPIVersions']],
      ['gundeck.yaml', ['settings', 'disabledAPIVersions']],
      ['cannon.yaml', ['disabledAPIVersions']],
      ['proxy.yaml', ['disabledAPIVersions']],
      ['spar.yaml', ['disabledAPIVersions']],
    ];
    for (const value of [[], ['v2', 'development']]) {
      const r = loadConfig(editedTexts(files.map(([f, p]) => [f, p, value])));
      expect(r.ok ? [] : r.problems.map(formatProblem)).toEqual([]);
    }
  });

  it('warns that downloadEndpoint is ignored under multiIngress', () => {
    const r = loadConfig(
      editedTexts([
        ['cargohold.yaml', ['objstore', 'downloadEndpoint'], 'https://assets.example.com'],
        ['cargohold.yaml', ['objstore', 'multiIngress'], { 'red.example.com': 'https://assets.red.example.com' }],
      ]),
    );
    expect(r.ok).toBe(true);
    expect(r.warnings.map((w) => w.path)).toContain('objstore.downloadEndpoint');
  });
});

describe("spar's service provider settings", () => {
  const spar = (edits: Edit[]) => {
    const r = loadConfig(editedTexts([['spar.yaml', ['saml'], DELETE], ...edits]));
    if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
    return r.config.spar;
  };

  it("takes the chart's appUri and ssoUri, deriving scimBaseUri from ssoUri when left out", () => {
    const c = spar([
      ['spar.yaml', ['scimBaseUri'], DELETE],
      ['spar.yaml', ['appUri'], 'https://webapp.example.com/'],
      ['spar.yaml', ['ssoUri'], 'https://nginz-https.example.com/sso'],
      ['spar.yaml', ['contacts'], [{ type: 'ContactSupport', email: 'help@example.com' }]],
    ]);
    expect(c.saml).toEqual({
      spAppUri: 'https://webapp.example.com/',
      spSsoUri: 'https://nginz-https.example.com/sso',
      contacts: [{ type: 'ContactSupport', email: 'help@example.com' }],
    });
    expect(c.scimBaseUri).toBe('https://nginz-https.example.com/scim/v2');
  });

  it('keeps an explicit scimBaseUri, and demands one with domainConfigs', () => {
    const explicit = spar([
      ['spar.yaml', ['ssoUri'], 'https://nginz.example.com/sso'],
      ['spar.yaml', ['appUri'], 'https://app.example.com/'],
      ['spar.yaml', ['scimBaseUri'], 'https://scim.example.com/v2'],
    ]);
    expect(explicit.scimBaseUri).toBe('https://scim.example.com/v2');
    const r = loadConfig(
      editedTexts([
        ['spar.yaml', ['saml'], DELETE],
        ['spar.yaml', ['scimBaseUri'], DELETE],
        ['spar.yaml', ['domainConfigs'], { 'a.example': { appUri: 'https://a/', ssoUri: 'https://a/sso' } }],
      ]),
    );
    expect(r.ok ? [] : r.problems).toContainEqual({
      file: 'spar.yaml',
      path: 'scimBaseUri',
      message: expect.stringMatching(/is required/),
    });
  });
});
