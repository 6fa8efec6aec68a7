import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as packet from 'dns-packet';

export interface SrvRecord {
  target: string;
  port: number;
}

export interface LocalDns {
  host: string;
  port: number;
  /** Sets (or, with undefined, removes) the SRV record of a name. */
  set(name: string, record: SrvRecord | undefined): void;
  stop(): Promise<void>;
}

/**
 * A DNS server on loopback answering SRV queries from a table: how backends on one machine find
 * each other's federators (`_svc-federator._tcp.<domain>`), with the federator resolving through
 * a real DNS exchange as it does in production. Names it does not hold get NXDOMAIN.
 */
export async function startLocalDns(records: Record<string, SrvRecord> = {}, port = 0): Promise<LocalDns> {
  const table = new Map(Object.entries(records).map(([k, v]) => [k.toLowerCase(), v]));
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, peer) => {
    let query: packet.Packet;
    try {
      query = packet.decode(msg);
    } catch {
      return; // not DNS: no answer
    }
    const question = query.questions?.[0];
    const record = question === undefined ? undefined : table.get(question.name.toLowerCase());
    const answers: packet.Answer[] =
      question?.type === 'SRV' && record !== undefined
        ? [
            {
              type: 'SRV',
              name: question.name,
              ttl: 5,
              data: { priority: 0, weight: 0, port: record.port, target: record.target },
            },
          ]
        : [];
    const reply = packet.encode({
      id: query.id,
      type: 'response',
      flags: packet.AUTHORITATIVE_ANSWER | (record === undefined ? 3 : 0), // rcode 3: NXDOMAIN
      questions: query.questions,
      answers,
    });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject); // the port is held, say
    socket.bind(port, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  return {
    host: '127.0.0.1',
    port: (socket.address() as AddressInfo).port,
    set: (name, record) => {
      if (record === undefined) table.delete(name.toLowerCase());
      else table.set(name.toLowerCase(), record);
    },
    stop: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
