import type { Credential } from 'ts-mls/credential.js';
import { normalizeDomain } from '../domain.js';
import { isUuid } from '../uuid.js';
import { certifiedClient } from './x509-identity.js';

/** The Wire client an MLS credential names: user id, client id (hex), the user's domain. */
export interface ClientIdentity {
  /** The user id, a lowercase UUID. */
  user: string;
  /** The client id, lowercase hex without leading zeros. */
  client: string;
  /** The user's domain, lowercase. */
  domain: string;
}

/** What a credential says about its client: the identity, or why there is none. */
type CredentialIdentity =
  /** `certifiedKey`: an X.509 credential's certificate key, which must be the leaf's signature key. */
  | { ok: true; identity: ClientIdentity; certifiedKey?: Uint8Array }
  | { ok: false; reason: 'unsupported-credential' | 'malformed-identity'; message: string };

const BASIC_IDENTITY = /^([^:]{36}):([0-9a-f]+)@(.*)$/i;
const CLIENT_ID_LIMIT = 1n << 64n;
/** Strict UTF-8 that keeps a leading BOM, as wire-server's `decodeUtf8'` does. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A client id's numeric value (wire-server's Word64); `undefined` for text that is not one. */
function clientNumber(hex: string): bigint | undefined {
  if (!/^[0-9a-f]+$/i.test(hex)) return undefined;
  const value = BigInt(`0x${hex}`);
  return value < CLIENT_ID_LIMIT ? value : undefined;
}

/**
 * Parses the text of a basic credential, `<uuid>:<client hex>@<domain>` (what core-crypto writes),
 * into a normalized identity; `undefined` when wire-server's parser would refuse it. The client id
 * is read as a 64-bit number, so `00aa` and `AA` both become `aa`.
 */
export function parseClientIdentity(text: string): ClientIdentity | undefined {
  const match = BASIC_IDENTITY.exec(text);
  if (match === null) return undefined;
  const [, user, clientHex, domainText] = match;
  const client = clientNumber(clientHex!);
  const domain = normalizeDomain(domainText!);
  if (!isUuid(user!) || client === undefined || domain === undefined) return undefined;
  return { user: user!.toLowerCase(), client: client.toString(16), domain };
}

/**
 * The client identity a leaf node's credential names. Basic credentials carry it as UTF-8 text;
 * X.509 credentials (end-to-end identity) in the leaf certificate's `wireapp://` SAN URI, with the
 * certificate's key (see x509-identity.ts). Other credential types are unsupported.
 */
export function credentialIdentity(credential: Credential): CredentialIdentity {
  if (credential.credentialType === 'x509') {
    const certified = certifiedClient(credential.certificates);
    if (typeof certified === 'string')
      return { ok: false, reason: 'malformed-identity', message: `Failed to parse identity: ${certified}` };
    const { publicKey, ...identity } = certified;
    return { ok: true, identity, certifiedKey: publicKey };
  }
  const type: string = (credential as { credentialType: string }).credentialType;
  if (type !== 'basic' || !('identity' in credential)) {
    const message = `Failed to parse identity: ${type} credentials are not supported`;
    return { ok: false, reason: 'unsupported-credential', message };
  }
  let identity: ClientIdentity | undefined;
  try {
    identity = parseClientIdentity(utf8.decode(credential.identity));
  } catch {
    identity = undefined; // not UTF-8
  }
  if (identity === undefined) {
    return {
      ok: false,
      reason: 'malformed-identity',
      message: 'Failed to parse identity: not <uuid>:<client>@<domain>',
    };
  }
  return { ok: true, identity };
}

/**
 * Whether two identities name the same client: user ids and domains compared without regard to
 * case, client ids as numbers (as wire-server compares its Word64 client ids).
 */
export function sameClient(a: ClientIdentity, b: ClientIdentity): boolean {
  const clientA = clientNumber(a.client);
  return (
    clientA !== undefined &&
    clientA === clientNumber(b.client) &&
    a.user.toLowerCase() === b.user.toLowerCase() &&
    a.domain.toLowerCase() === b.domain.toLowerCase()
  );
}

/** The basic credential text of a client, as core-crypto writes it: `<uuid>:<client hex>@<domain>`. */
export function clientIdentity(user: string, client: string, domain: string): string {
  return `${user}:${client}@${domain}`;
}
