import type { Config } from './components.js';

/**
 * What a file is, which says how tools read it into SVC_FILES (and, locally, make a missing one):
 * `turn-servers` a list of TURN URIs, `secret` a shared secret, `p256-key` an ECDSA P-256 private
 * key (PEM; the worker gets it as a JWK), `ed25519-jwk` a JWK of an Ed25519 key pair,
 * `ed25519-public-jwk` the public half of one (made locally from the key pair named before it),
 * `proxy-secrets` the proxy's third-party API keys (`secrets { giphy = "…" … }`).
 */
export type NamedFileKind =
  | 'turn-servers'
  | 'secret'
  | 'p256-key'
  | 'ed25519-jwk'
  | 'ed25519-public-jwk'
  | 'proxy-secrets';

/** A file the configuration names by path, whose contents the worker needs. */
export interface NamedFile {
  /** The path as configured (the key of SVC_FILES). */
  path: string;
  /** Where the configuration names it, for messages: `brig.yaml turn.secret`. */
  setting: string;
  kind: NamedFileKind;
}

/** Every file the configuration names for the worker; workers have no file system, so tools pass them in SVC_FILES. */
export function namedFiles(config: Config): NamedFile[] {
  const brig = config.brig;
  const files: NamedFile[] = [];
  const add = (path: string | undefined, setting: string, kind: NamedFileKind, file = 'brig.yaml') => {
    if (path !== undefined) files.push({ path, setting: `${file} ${setting}`, kind });
  };
  if (brig.turn.serversSource === 'files') {
    add(brig.turn.servers, 'turn.servers', 'turn-servers');
    add(brig.turn.serversV2, 'turn.serversV2', 'turn-servers');
  }
  add(brig.turn.secret, 'turn.secret', 'secret');
  add(brig.sft?.sftToken?.secret, 'sft.sftToken.secret', 'secret');
  add(brig.sftToken?.secret, 'sftToken.secret', 'secret');
  add(brig.secrets.dpopSigKeyBundle, 'secrets.dpopSigKeyBundle', 'p256-key');
  if (brig.optSettings.setOAuthEnabled) {
    add(brig.optSettings.setOAuthJwkKeyPair, 'optSettings.setOAuthJwkKeyPair', 'ed25519-jwk');
    add(config.nginz.nginx_conf.oauth_pub_key, 'nginx_conf.oauth_pub_key', 'ed25519-public-jwk', 'nginz.yaml');
  }
  add(config.proxy.secretsConfig, 'secretsConfig', 'proxy-secrets', 'proxy.yaml');
  return files;
}
