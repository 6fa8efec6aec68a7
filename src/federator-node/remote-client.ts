import http2 from 'node:http2';
import tls from 'node:tls';
import type { SrvTarget } from './discovery.js';
import { federatorError, type FederatorError } from './errors.js';
import type { TlsMaterial } from './tls-material.js';

interface RemoteReply {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

/** Errors of a TCP connection (the remote is down or unreachable), as opposed to TLS ones. */
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** 521 when the remote cannot be reached, 525 when the TLS handshake fails (as wire's federator answers). */
function classify(err: Error & { code?: string }, tcpConnected: boolean): FederatorError {
  if (!tcpConnected || CONNECTION_ERRORS.has(err.code ?? ''))
    return federatorError(521, 'federation-connection-refused', err.message);
  return federatorError(525, 'federation-tls-error', err.message);
}

/**
 * HTTP/2 with mutual TLS to remote federators, one session per remote kept open and shared by
 * calls. The server's certificate must name the remote's domain (not the SRV target's host).
 */
interface Link {
  session: http2.ClientHttp2Session;
  /** Whether the TCP connection was made: failures before are 521, after (the handshake) 525. */
  tcp: boolean;
}

export class RemoteClient {
  private readonly links = new Map<string, Link>();

  constructor(
    private readonly material: TlsMaterial,
    private readonly connectTimeoutMs: number,
  ) {}

  private link(domain: string, target: SrvTarget): Link {
    const key = `${domain} ${target.host}:${target.port}`;
    const known = this.links.get(key);
    if (known !== undefined && !known.session.closed && !known.session.destroyed) return known;
    const link: Link = {
      tcp: false,
      session: this.connect(domain, target, () => {
        link.tcp = true;
      }),
    };
    link.session.on('close', () => {
      if (this.links.get(key) === link) this.links.delete(key);
    });
    link.session.on('error', () => {}); // each call reports its own failure
    this.links.set(key, link);
    return link;
  }

  post(domain: string, target: SrvTarget, path: string, headers: Record<string, string>, body: Buffer) {
    const link = this.link(domain, target);
    return new Promise<RemoteReply>((resolve, reject) => {
      const fail = (err: Error & { code?: string }) => {
        link.session.off('error', fail);
        reject(classify(err, link.tcp));
      };
      link.session.once('error', fail);
      const req = link.session.request({ ':method': 'POST', ':path': path, ...headers });
      req.once('error', fail);
      req.once('response', (h) => {
        const parts: Buffer[] = [];
        req.on('data', (c: Buffer) => parts.push(c));
        req.once('end', () => {
          link.session.off('error', fail);
          resolve({
            status: Number(h[':status']),
            contentType: h['content-type'] as string | undefined,
            body: Buffer.concat(parts),
          });
        });
      });
      req.end(body);
    });
  }

  private connect(domain: string, target: SrvTarget, onTcp: () => void): http2.ClientHttp2Session {
    const m = this.material;
    return http2.connect(`https://${target.host}:${target.port}`, {
      createConnection: () => {
        const socket = tls.connect({
          host: target.host,
          port: target.port,
          servername: domain,
          ALPNProtocols: ['h2'],
          ca: m.ca,
          ...(m.certificate === undefined ? {} : { cert: m.certificate, key: m.privateKey }),
          checkServerIdentity: (_host, cert) => tls.checkServerIdentity(domain, cert),
        });
        const timer = setTimeout(
          () =>
            socket.destroy(
              Object.assign(new Error(`TCP connect timeout to ${target.host}:${target.port}`), { code: 'ETIMEDOUT' }),
            ),
          this.connectTimeoutMs,
        );
        socket.once('connect', () => {
          clearTimeout(timer);
          onTcp();
        });
        socket.once('close', () => clearTimeout(timer));
        return socket;
      },
    });
  }

  close(): void {
    for (const l of this.links.values()) l.session.close();
    this.links.clear();
  }
}
