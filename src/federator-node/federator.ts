import type { Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Discovery } from './discovery.js';
import { inwardServer } from './inward.js';
import { Metrics } from './metrics.js';
import { outwardServer } from './outward.js';
import { RemoteClient } from './remote-client.js';
import { Remotes } from './remotes.js';
import { tlsMaterial, type TlsSettings } from './tls-material.js';

/** What the federator needs: federator.yaml's parts and the local facts. */
export interface FederatorOptions {
  /** This backend's federation domain (brig's setFederationDomain). */
  domain: string;
  internal: { host: string; port: number };
  external: { host: string; port: number };
  tls: TlsSettings;
  /** federator.yaml's `tcpConnectionTimeout`, in microseconds. */
  tcpConnectionTimeoutMicros: number;
  dns?: { host: string; port: number } | undefined;
  /** The worker's internal ingress (its federation API and `/i/federation/remotes`). */
  workerInternal: URL;
}

export interface RunningFederator {
  /** Where the worker calls (`POST /rpc/{domain}/{component}/{rpc}`). */
  internalUrl: URL;
  /** Where remote federators call (HTTP/2, mutual TLS). */
  externalPort: number;
  metrics: Metrics;
  /** Stops taking calls and lets the ones under way finish, within `graceMs` (the seed's 30 s). */
  stop(graceMs?: number): Promise<void>;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
      resolve();
    }, graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export async function startFederator(o: FederatorOptions): Promise<RunningFederator> {
  const material = tlsMaterial(o.tls);
  const metrics = new Metrics();
  const client = new RemoteClient(material, Math.ceil(o.tcpConnectionTimeoutMicros / 1000));
  const outward = outwardServer({ ownDomain: o.domain, discovery: new Discovery(o.dns), client, metrics });
  const inward = inwardServer({
    material,
    workerInternal: o.workerInternal,
    remotes: new Remotes(o.workerInternal),
    metrics,
  });
  const internalPort = await listen(outward, o.internal.host, o.internal.port);
  const externalPort = await listen(inward, o.external.host, o.external.port);
  return {
    internalUrl: new URL(`http://${o.internal.host}:${internalPort}`),
    externalPort,
    metrics,
    stop: async (graceMs = 30_000) => {
      client.close();
      await Promise.all([close(outward, graceMs), close(inward, graceMs)]);
    },
  };
}
