import { proteus } from '@wireapp/protocol-messaging/web/otr.js';
import { describe, expect, it } from 'vitest';
import { clientIdLong, decodeLegacyOtr, decodeQualifiedOtr, OtrDecodeError } from '../../../src/shared/codecs/otr.js';

const user = '0b0b0b0b-1111-4222-8333-444455556666';
const uuidBytes = (u: string) => Buffer.from(u.replace(/-/g, ''), 'hex');

function qualified(extra: Record<string, unknown>): Uint8Array {
  return proteus.QualifiedNewOtrMessage.encode(
    proteus.QualifiedNewOtrMessage.create({
      sender: { client: clientIdLong('a1b2c3d4e5f60718') },
      recipients: [
        {
          domain: 'example.com',
          entries: [
            {
              user: { uuid: uuidBytes(user) },
              clients: [{ client: { client: clientIdLong('ffffffffffffffff') }, text: Buffer.from('hi') }],
            },
          ],
        },
      ],
      ...extra,
    }),
  ).finish();
}

describe('otr.proto messages', () => {
  it('decodes QualifiedNewOtrMessage with 64-bit client ids and the strategy', () => {
    const m = decodeQualifiedOtr(
      qualified({ reportOnly: { userIds: [{ id: user, domain: 'example.com' }] }, blob: Buffer.from('x') }),
    );
    expect(m).toMatchObject({
      sender: 'a1b2c3d4e5f60718',
      recipients: [{ domain: 'example.com', user, client: 'ffffffffffffffff' }],
      nativePush: true,
      transient: false,
      priority: undefined,
      strategy: { kind: 'report_only', users: [{ id: user, domain: 'example.com' }] },
    });
    expect(Buffer.from(m.recipients[0]!.text).toString()).toBe('hi');
    expect(Buffer.from(m.blob!).toString()).toBe('x');
  });

  it('names each client alike however often it recurs, with no leading zeros, low half zero-padded', () => {
    const ids = ['1', 'ff', 'a0000000', '100000000', '100000001', '10000000a', 'ffffffffffffffff', '1a2b3c4d00000000'];
    const message = (sender: string) =>
      proteus.QualifiedNewOtrMessage.encode(
        proteus.QualifiedNewOtrMessage.create({
          sender: { client: clientIdLong(sender) },
          recipients: [
            {
              domain: 'example.com',
              entries: [
                {
                  user: { uuid: uuidBytes(user) },
                  clients: ids.map((id) => ({ client: { client: clientIdLong(id) }, text: Buffer.from('hi') })),
                },
              ],
            },
          ],
        }),
      ).finish();
    for (const sender of ['1', '100000000', '1']) {
      const m = decodeQualifiedOtr(message(sender));
      expect(m.sender).toBe(sender);
      expect(m.recipients.map((r) => r.client)).toEqual(ids);
    }
  });

  it('reports a missing strategy as undefined, and refuses malformed bytes', () => {
    expect(decodeQualifiedOtr(qualified({})).strategy).toBeUndefined();
    expect(decodeQualifiedOtr(qualified({ ignoreAll: {}, nativePriority: 2, transient: true }))).toMatchObject({
      strategy: { kind: 'ignore_all' },
      priority: 'high',
      transient: true,
    });
    expect(() => decodeQualifiedOtr(new Uint8Array([0x0a, 0xff, 0xff]))).toThrow(OtrDecodeError);
    expect(() => decodeQualifiedOtr(new Uint8Array([]))).toThrow(OtrDecodeError); // sender is required
  });

  it('decodes the legacy NewOtrMessage with report_missing', () => {
    const bytes = proteus.NewOtrMessage.encode(
      proteus.NewOtrMessage.create({
        sender: { client: clientIdLong('1') },
        recipients: [
          {
            user: { uuid: uuidBytes(user) },
            clients: [{ client: { client: clientIdLong('2') }, text: Buffer.from('t') }],
          },
        ],
        reportMissing: [{ uuid: uuidBytes(user) }],
      }),
    ).finish();
    expect(decodeLegacyOtr(bytes, 'example.com')).toMatchObject({
      sender: '1',
      recipients: [{ domain: 'example.com', user, client: '2' }],
      reportMissing: [user],
    });
  });
});
