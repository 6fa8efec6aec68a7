import dgram from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as packet from 'dns-packet';

export interface SrvRecord {
  target: string;
  port: number;
  priority?: number;
  weight?: number;
}

/** The records a name holds, by type. */
export interface NameRecords {
  srv?: SrvRecord[];
  txt?: string[];
  a?: string[];
}

export interface LocalDns {
  host: string;
  port: number;
  /** DNS over HTTPS (RFC 8484) over TCP, on the same port number when one was named: how workers resolve. */
  dohUrl: string;
  /** Sets (or, with undefined, removes) the SRV record of a name. */
  set(name: string, record: SrvRecord | undefined): void;
  /** Sets (or, with undefined, removes) all records of a name. */
  setRecords(name: string, records: NameRecords | undefined): void;
  stop(): Promise<void>;
}

function answersOf(question: packet.Question, records: NameRecords): packet.Answer[] {
  const base = { name: question.name, ttl: 5 };
  switch (question.type) {
    case 'SRV':
      return (records.srv ?? []).map((r) => ({
        ...base,
        type: 'SRV' as const,
        data: { priority: r.priority ?? 0, weight: r.weight ?? 1, port: r.port, target: r.target },
      }));
    case 'TXT':
      return (records.txt ?? []).map((t) => ({ ...base, type: 'TXT' as const, data: [t] }));
    case 'A':
      return (records.a ?? []).map((ip) => ({ ...base, type: 'A' as const, data: ip }));
    default:
      return [];
  }
}

/**
 * A DNS server on loopback answering SRV, TXT and A queries from a table, over UDP and over HTTP
 * (DoH): how backends on one machine find each other's federators (`_svc-federator._tcp.<domain>`)
 * and brig finds SFT and TURN servers and verification records, through real DNS exchanges as in
 * production. Names the table does not hold are asked of `lookup`, when given, at each query;
 * names neither holds get NXDOMAIN.
 */
export async function startLocalDns(
  records: Record<string, SrvRecord> = {},
  port = 0,
  lookup?: (name: string) => NameRecords | undefined,
): Promise<LocalDns> {
  const table = new Map<string, NameRecords>(Object.entries(records).map(([k, v]) => [k.toLowerCase(), { srv: [v] }]));
  const answer = (msg: Buffer): Buffer | undefined => {
    let query: packet.Packet;
    try {
      query = packet.decode(msg);
    } catch {
      return undefined; // not DNS: no answer
    }
    const question = query.questions?.[0];
    const name = question?.name.toLowerCase();
    const held = name === undefined ? undefined : (table.get(name) ?? lookup?.(name));
    return packet.encode({
      id: query.id,
      type: 'response',
      flags: packet.AUTHORITATIVE_ANSWER | (held === undefined ? 3 : 0), // rcode 3: NXDOMAIN
      questions: query.questions,
      answers: question === undefined || held === undefined ? [] : answersOf(question, held),
    });
  };
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, peer) => {
    const reply = answer(msg);
    if (reply !== undefined) socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject); // the port is held, say
    socket.bind(port, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const udpPort = (socket.address() as AddressInfo).port;
  let http: Server;
  try {
    // A named port serves DoH on the same number (config names one URL); a free UDP port's number
    // may be taken over TCP, so DoH then takes a free port of its own.
    http = await startDoh(port === 0 ? 0 : udpPort, answer);
  } catch (err) {
    socket.close();
    throw err;
  }
  return {
    host: '127.0.0.1',
    port: udpPort,
    dohUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}/dns-query`,
    set: (name, record) => {
      if (record === undefined) table.delete(name.toLowerCase());
      else table.set(name.toLowerCase(), { srv: [record] });
    },
    setRecords: (name, held) => {
      if (held === undefined) table.delete(name.toLowerCase());
      else table.set(name.toLowerCase(), held);
    },
    stop: async () => {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}

/** RFC 8484's POST form: a DNS message in, a DNS message out, at /dns-query. */
function startDoh(port: number, answer: (msg: Buffer) => Buffer | undefined): Promise<Server> {
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const reply =
        req.method === 'POST' && req.url === '/dns-query' && req.headers['content-type'] === 'application/dns-message'
          ? answer(Buffer.concat(parts))
          : undefined;
      if (reply === undefined) res.writeHead(400).end();
      else res.writeHead(200, { 'content-type': 'application/dns-message' }).end(reply);
    });
  });
  server.keepAliveTimeout = 1000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
