// The federator sidecar as `npm start` and the tests run it beside a backend: its listeners, its
// certificates (a local CA when federator.yaml names files of one) and, for backends on one
// machine, the DNS server that answers their SRV records.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { startFederator, type FederatorOptions, type RunningFederator } from '../../src/federator-node/federator.js';
import { localPki } from '../../src/federator-node/pki.js';
import type { TlsSettings } from '../../src/federator-node/tls-material.js';
import { type Config, type ConfigTexts, loadConfig } from '../../src/shared/config/index.js';
import { type Backend, type BackendOptions, startBackend } from './backend.js';
import { ROOT } from './bundle.js';
import { readConfigTexts } from './config-dir.js';
import { type Edit, editedTexts } from './config-edit.js';
import { federatorRegistry } from './federator-registry.js';
import { startLocalDns, type LocalDns, type SrvRecord } from './local-dns.js';
import { portFree } from './ports.js';

function loaded(texts: ConfigTexts): Config {
  const checked = loadConfig(texts);
  if (!checked.ok) throw new Error(`configuration refused: ${checked.problems.length} problem(s)`);
  return checked.config;
}

const domainOf = (config: Config) => config.brig.optSettings.setFederationDomain;

/**
 * Makes the local CA's files when federator.yaml names them (`<dir>/ca.pem`, `<dir>/<domain>.pem`,
 * `<dir>/<domain>-key.pem`) and they are missing: backends on one machine share `<dir>`. Files of
 * any other shape are the operator's, and the federator refuses to start without them.
 */
async function ensureLocalPki(tls: TlsSettings, domain: string): Promise<void> {
  const { clientCertificate: cert, clientPrivateKey: key, remoteCAStore: ca } = tls;
  if (cert === undefined || key === undefined) return;
  const dir = dirname(cert);
  const shaped =
    basename(cert) === `${domain}.pem` &&
    key === join(dir, `${domain}-key.pem`) &&
    (ca === undefined || ca === join(dir, 'ca.pem'));
  if (shaped && ![cert, key, ca ?? cert].every((f) => existsSync(f))) await localPki(dir, domain);
}

/**
 * How the federator's ports are chosen: `configured` takes federator.yaml's or fails (a deployment),
 * `fallback` any when that one is held (npm start beside another backend), `any` always (tests).
 */
type Ports = 'configured' | 'fallback' | 'any';

/** The port to bind: 0 is any, picked when the federator binds. */
async function portFor(configured: number, ports: Ports): Promise<number> {
  if (ports === 'configured') return configured;
  return ports === 'fallback' && (await portFree(configured)) ? configured : 0;
}

type SidecarOptions = {
  root?: string;
  /** Default `fallback`. */
  ports?: Ports;
  dns?: { host: string; port: number };
  /**
   * Serves federator.yaml's DNS server when it is on loopback (npm start), with the SRV records of
   * these configuration folders; see `serveFederationDns`. Its federator asks that server.
   */
  serveDns?: string[];
  /** FEDERATOR_INTERNAL_TOKEN, the worker's too (see FederatorOptions.token). */
  token?: string | undefined;
};

type SidecarFederatorOptions = Omit<FederatorOptions, 'workerInternal'>;

/**
 * What the federator of this configuration runs with. Relative file names in federator.yaml are
 * taken from `root` (the repository, where npm start runs). With federation off, only the internal
 * face: no external listener, certificates or DNS.
 */
export async function federatorOptions(config: Config, o: SidecarOptions): Promise<SidecarFederatorOptions> {
  const { federatorInternal, federatorExternal, optSettings: s } = config.federator;
  const ports = o.ports ?? 'fallback';
  const only = {
    domain: domainOf(config),
    internal: { host: federatorInternal.host, port: await portFor(federatorInternal.port, ports) },
    tcpConnectionTimeoutMicros: s.tcpConnectionTimeout,
    token: o.token,
  };
  if (!config.brig.enableFederation) return { ...only, federation: undefined };
  const external = { host: federatorExternal.host, port: await portFor(federatorExternal.port, ports) };
  const file = (f: string | undefined) => (f === undefined ? undefined : resolve(o.root ?? ROOT, f));
  const tls: TlsSettings = {
    useSystemCAStore: s.useSystemCAStore,
    remoteCAStore: file(s.remoteCAStore),
    clientCertificate: file(s.clientCertificate),
    clientPrivateKey: file(s.clientPrivateKey),
  };
  await ensureLocalPki(tls, domainOf(config));
  const configuredDns = s.dnsHost === undefined ? undefined : { host: s.dnsHost, port: s.dnsPort ?? 53 };
  return { ...only, federation: { external, tls }, dns: o.dns ?? configuredDns };
}

export interface StartedSidecar {
  federator: RunningFederator;
  options: SidecarFederatorOptions;
  /**
   * The configuration with federator.yaml's listeners where the federator really listens, and the
   * DNS server's (with brig's DNS-over-HTTPS URL, when it named that server) where it serves.
   */
  texts: ConfigTexts;
  /** The DNS server it serves (`serveDns`). */
  dns: LocalDns | undefined;
  /** Tells the federator where the worker, started after it, listens. */
  workerStarted(internalUrl: URL): void;
  /** Stops the federator (see RunningFederator.stop), then its DNS server. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts the federator of a configuration, before the worker: the worker's configuration needs
 * the ports it really listens on. With federation off it still runs, for the worker's pinned calls
 * to integrations (legal hold services, bots), with its internal face only.
 */
export async function startSidecar(texts: ConfigTexts, o: SidecarOptions = {}): Promise<StartedSidecar> {
  const config = loaded(texts);
  const served = o.serveDns === undefined ? undefined : await serveFederationDns(config, o.serveDns, o.root ?? ROOT);
  let federator: RunningFederator;
  let options: SidecarFederatorOptions;
  let workerStarted!: (u: URL) => void;
  const workerInternal = new Promise<URL>((resolve) => {
    workerStarted = resolve;
  });
  try {
    options = await federatorOptions(config, served === undefined ? o : { ...o, dns: served.address });
    federator = await startFederator({ ...options, workerInternal });
  } catch (err) {
    await served?.stop();
    throw err;
  }
  const { externalPort } = federator;
  const announced = externalPort === undefined ? undefined : served?.announce(options.domain, externalPort);
  const edited = editedTexts(
    [
      ['federator.yaml', ['federatorInternal', 'port'], Number(federator.internalUrl.port)],
      ...(externalPort === undefined ? [] : [['federator.yaml', ['federatorExternal', 'port'], externalPort] as Edit]),
      ...(served?.edits ?? []),
    ],
    texts,
  );
  const stop = async (graceMs?: number) => {
    await federator.stop(graceMs);
    announced?.();
    await served?.stop();
  };
  return { federator, options, texts: edited, dns: served?.dns, workerStarted, stop };
}

/** Each configuration folder's domain and where its configuration puts its federator's external listener. */
function configuredFederators(dirs: string[]): Map<string, SrvRecord> {
  const found = new Map<string, SrvRecord>();
  for (const dir of dirs) {
    const checked = loadConfig(readConfigTexts(dir));
    if (!checked.ok || !checked.config.brig.enableFederation) continue;
    const { host, port } = checked.config.federator.federatorExternal;
    found.set(domainOf(checked.config), { target: host, port });
  }
  return found;
}

/** The shipped configuration folders: `config/` and the ones inside it (config/b.example.com/). */
export function shippedConfigDirs(): string[] {
  const top = join(ROOT, 'config');
  const inner = readdirSync(top, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(top, e.name, 'brig.yaml')))
    .map((e) => join(top, e.name));
  return [top, ...inner];
}

const SRV_PREFIX = '_svc-federator._tcp.';

interface FederationDns {
  dns: LocalDns;
  /** Where the federator asks. */
  address: { host: string; port: number };
  /** The DNS server's port, and brig's DNS-over-HTTPS URL when it named this server, where it serves. */
  edits: Edit[];
  /** Answers for this backend's own domain, and tells the backends of this checkout; returns the undo. */
  announce(domain: string, port: number): () => void;
  stop(): Promise<void>;
}

/**
 * For backends on one machine: when federation is on and federator.yaml names a DNS server on
 * loopback, serves it on that port or, when another backend holds it, on a free one. It answers
 * `_svc-federator._tcp.<domain>` for this backend's own domain where its federator really
 * listens, and for the domain of each configuration folder given where a running backend of this
 * checkout registered its federator (`<root>/.federation/listening/`), else where that folder's
 * configuration puts it. So a backend finds those of its own checkout wherever they listen, rather
 * than whatever holds their configured port (another checkout's federator, say, whose certificate
 * comes from another local CA).
 */
async function serveFederationDns(config: Config, dirs: string[], root: string): Promise<FederationDns | undefined> {
  const { dnsHost, dnsPort = 53 } = config.federator.optSettings;
  if (!config.brig.enableFederation || dnsHost === undefined || !['127.0.0.1', 'localhost'].includes(dnsHost))
    return undefined;
  const configured = configuredFederators(dirs);
  const registry = federatorRegistry(join(root, '.federation', 'listening'));
  const lookup = (name: string) => {
    if (!name.startsWith(SRV_PREFIX)) return undefined;
    const domain = name.slice(SRV_PREFIX.length);
    const registered = registry.find(domain);
    const record =
      registered === undefined ? configured.get(domain) : { target: registered.host, port: registered.port };
    return record === undefined ? undefined : { srv: [record] };
  };
  let dns: LocalDns;
  try {
    dns = await startLocalDns({}, dnsPort, lookup);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    dns = await startLocalDns({}, 0, lookup);
  }
  const edits: Edit[] = [['federator.yaml', ['optSettings', 'dnsPort'], dns.port]];
  if (config.brig.dnsOverHttpsUrl === `http://${dnsHost}:${dnsPort}/dns-query`)
    edits.push(['brig.yaml', ['dnsOverHttpsUrl'], dns.dohUrl]);
  return {
    dns,
    address: { host: dns.host, port: dns.port },
    edits,
    announce: (domain, port) => {
      dns.set(`${SRV_PREFIX}${domain}`, { target: '127.0.0.1', port });
      return registry.register(domain, { host: '127.0.0.1', port });
    },
    stop: () => dns.stop(),
  };
}

export interface BackendWithSidecar extends Backend {
  /** The backend's federator (with federation off, its internal face only). */
  federator: RunningFederator;
}

/**
 * A backend and its federator on free ports (tests and benchmarks): certificates under `root`,
 * SRV lookups at `dns`; the worker's secret FEDERATOR_INTERNAL_TOKEN, when given, is the
 * federator's too. With `serveDns`, as npm start runs them instead: on the configured ports unless
 * they are held, with the DNS server federator.yaml names (see StartedSidecar).
 */
export async function startBackendWithSidecar(
  o: BackendOptions,
  sidecar: { root: string; dns?: { host: string; port: number } | undefined; serveDns?: string[] },
): Promise<BackendWithSidecar> {
  const started = await startSidecar(o.config, {
    root: sidecar.root,
    ...(sidecar.serveDns === undefined ? { ports: 'any' } : { ports: 'fallback', serveDns: sidecar.serveDns }),
    ...(sidecar.dns === undefined ? {} : { dns: sidecar.dns }),
    token: o.secrets?.FEDERATOR_INTERNAL_TOKEN,
  });
  let backend: Backend;
  try {
    backend = await startBackend({ ...o, config: started.texts });
  } catch (err) {
    await started.stop(0);
    throw err;
  }
  started.workerStarted(backend.internalUrl);
  return {
    ...backend,
    federator: started.federator,
    stop: async () => {
      await started.stop(1000);
      await backend.stop();
    },
  };
}
