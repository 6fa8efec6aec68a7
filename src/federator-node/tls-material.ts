import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';

/** What the federator's TLS needs, read from federator.yaml's `optSettings`. */
export interface TlsMaterial {
  /** Trusted CA certificates (PEM each); empty when neither store is configured: every handshake then fails. */
  ca: string[];
  /** This backend's certificate (full chain) and key: presented to remotes, and served to them. */
  certificate: string | undefined;
  privateKey: string | undefined;
}

export interface TlsSettings {
  useSystemCAStore: boolean;
  remoteCAStore?: string | undefined;
  clientCertificate?: string | undefined;
  clientPrivateKey?: string | undefined;
}

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle file, or of every file in a directory of hash-named ones. */
function caStore(path: string): string[] {
  const files = statSync(path).isDirectory()
    ? readdirSync(path, { withFileTypes: true })
        .filter((f) => f.isFile())
        .map((f) => join(path, f.name))
    : [path];
  return files.flatMap((f) => readFileSync(f, 'utf8').match(PEM) ?? []);
}

export function tlsMaterial(s: TlsSettings): TlsMaterial {
  return {
    ca: [...(s.useSystemCAStore ? rootCertificates : []), ...(s.remoteCAStore ? caStore(s.remoteCAStore) : [])],
    certificate: s.clientCertificate === undefined ? undefined : readFileSync(s.clientCertificate, 'utf8'),
    privateKey: s.clientPrivateKey === undefined ? undefined : readFileSync(s.clientPrivateKey, 'utf8'),
  };
}
