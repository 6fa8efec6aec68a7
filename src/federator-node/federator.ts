import type { Http2SecureServer, Http2Session } from 'node:http2';
import type { Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Discovery } from './discovery.js';
import { inwardServer } from './inward.js';
import { MetricsRegistry } from '../shared/metrics/registry.js';
import { outwardServer } from './outward.js';
import { RemoteClient } from './remote-client.js';
import { Remotes } from './remotes.js';
import { workerCall, type WorkerCall } from './shared-token.js';
import { tlsMaterial, type TlsSettings } from './tls-material.js';

/** What the federator needs: federator.yaml's parts and the local facts. */
export interface FederatorOptions {
  /** This backend's federation domain (brig's setFederationDomain). */
  domain: string;
  internal: { host: string; port: number };
  /**
   * Where remotes call (federatorExternal) and the TLS spoken with them. Undefined with federation
   * off: no external listener and no TLS material, calls to remotes are refused
   * (`federation-not-enabled`), and the sidecar serves the worker's integration calls only.
   */
  federation: { external: { host: string; port: number }; tls: TlsSettings } | undefined;
  /** federator.yaml's `tcpConnectionTimeout`, in microseconds. */
  tcpConnectionTimeoutMicros: number;
  dns?: { host: string; port: number } | undefined;
  /**
   * The worker's internal ingress (its federation API and `/i/federation/remotes`); a promise when
   * the worker starts after the federator (which then tells it where it really listens).
   */
  workerInternal: URL | Promise<URL>;
  /**
   * FEDERATOR_INTERNAL_TOKEN, when the worker and the federator meet across a network: required
   * of every call to the internal face, and sent with every call to the worker.
   */
  token?: string | undefined;
}

export interface RunningFederator {
  /** Where the worker calls (`POST /rpc/{domain}/{component}/{rpc}`). */
  internalUrl: URL;
  /** Where remote federators call (HTTP/2, mutual TLS); undefined with federation off. */
  externalPort: number | undefined;
  metrics: MetricsRegistry;
  /** Stops taking calls and lets the ones under way finish, within `graceMs` (the seed's 30 s). */
  stop(graceMs?: number): Promise<void>;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Stops accepting, lets calls under way finish (HTTP/2 sessions get a GOAWAY and close once their
 * streams end; idle HTTP/1 connections close at once), and cuts what is left after `graceMs`.
 */
function close(server: Server, graceMs: number, sessions: ReadonlySet<Http2Session> = new Set()): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
      for (const s of sessions) s.destroy();
      resolve();
    }, graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    for (const s of sessions) s.close();
  });
}

/** The HTTP/2 sessions a server has open, to close them on stop. */
function openSessions(server: Http2SecureServer): Set<Http2Session> {
  const sessions = new Set<Http2Session>();
  server.on('session', (s) => {
    sessions.add(s);
    s.once('close', () => sessions.delete(s));
  });
  return sessions;
}

/** Federation proper: the TLS material, the client to remotes and the face they call. */
function federationParts(o: FederatorOptions, tls: TlsSettings, worker: WorkerCall, metrics: MetricsRegistry) {
  const material = tlsMaterial(tls);
  const remotes = new Remotes(worker);
  const client = new RemoteClient(material, Math.ceil(o.tcpConnectionTimeoutMicros / 1000));
  const inward = inwardServer({ material, worker, remotes, metrics });
  return { discovery: new Discovery(o.dns), client, remotes, inward, sessions: openSessions(inward) };
}

export async function startFederator(o: FederatorOptions): Promise<RunningFederator> {
  const metrics = new MetricsRegistry();
  const worker = workerCall(Promise.resolve(o.workerInternal), o.token);
  const fed = o.federation && { ...o.federation, ...federationParts(o, o.federation.tls, worker, metrics) };
  const outward = outwardServer({ ownDomain: o.domain, federation: fed, metrics, token: o.token });
  const internalPort = await listen(outward, o.internal.host, o.internal.port);
  const externalPort = fed && (await listen(fed.inward, fed.external.host, fed.external.port));
  return {
    internalUrl: new URL(`http://${o.internal.host}:${internalPort}`),
    externalPort,
    metrics,
    stop: async (graceMs = 30_000) => {
      fed?.client.close();
      await Promise.all([close(outward, graceMs), fed && close(fed.inward, graceMs, fed.sessions)]);
    },
  };
}
