import { proteus } from '@wireapp/protocol-messaging/web/otr.js';
import Long from 'long';
import * as protobuf from 'protobufjs/minimal.js';
import { call, type Reply } from './http.js';

protobuf.util.Long = Long;
protobuf.configure();

export interface Ciphertext {
  user: string;
  client: string;
  text: string | Uint8Array;
  domain?: string;
}

export type Strategy =
  | { reportAll: Record<string, never> }
  | { ignoreAll: Record<string, never> }
  | { reportOnly: { userIds: Array<{ id: string; domain: string }> } }
  | { ignoreOnly: { userIds: Array<{ id: string; domain: string }> } }
  | Record<string, never>;

const uuidBytes = (u: string) => Buffer.from(u.replace(/-/g, ''), 'hex');
const clientId = (hex: string) => Long.fromString(hex, true, 16);

/** The `UserEntry` list of one domain's ciphertexts. */
function userEntries(recipients: Ciphertext[]) {
  const users = new Map<string, Ciphertext[]>();
  for (const r of recipients) users.set(r.user, [...(users.get(r.user) ?? []), r]);
  return [...users].map(([user, list]) => ({
    user: { uuid: uuidBytes(user) },
    clients: list.map((r) => ({
      client: { client: clientId(r.client) },
      text: typeof r.text === 'string' ? Buffer.from(r.text) : r.text,
    })),
  }));
}

/** A QualifiedNewOtrMessage as the official clients encode it. */
export function otrMessage(
  sender: string,
  recipients: Ciphertext[],
  strategy: Strategy = { reportAll: {} },
  extra: Record<string, unknown> = {},
) {
  const domains = [...new Set(recipients.map((r) => r.domain ?? 'example.com'))];
  return proteus.QualifiedNewOtrMessage.encode(
    proteus.QualifiedNewOtrMessage.create({
      sender: { client: clientId(sender) },
      recipients: domains.map((domain) => ({
        domain,
        entries: userEntries(recipients.filter((r) => (r.domain ?? 'example.com') === domain)),
      })),
      ...strategy,
      ...extra,
    }),
  ).finish();
}

/** The legacy unqualified NewOtrMessage; `reportMissing` takes user ids. */
export function legacyOtrMessage(
  sender: string,
  recipients: Ciphertext[],
  o: { reportMissing?: string[]; blob?: Uint8Array } = {},
) {
  return proteus.NewOtrMessage.encode(
    proteus.NewOtrMessage.create({
      sender: { client: clientId(sender) },
      recipients: userEntries(recipients),
      ...(o.reportMissing === undefined ? {} : { reportMissing: o.reportMissing.map((u) => ({ uuid: uuidBytes(u) })) }),
      ...(o.blob === undefined ? {} : { blob: o.blob }),
    }),
  ).finish();
}

export function postOtr(
  base: string,
  token: string,
  conv: string,
  body: Uint8Array | string,
  domain = 'example.com',
): Promise<Reply> {
  return call(base, `/v8/conversations/${domain}/${conv}/proteus/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-protobuf' },
    body: typeof body === 'string' ? body : Buffer.from(body),
  });
}
