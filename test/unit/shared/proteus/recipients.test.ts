import { describe, expect, it } from 'vitest';
import type { MismatchStrategy, OtrRecipient } from '../../../../src/shared/codecs/otr.js';
import {
  type ClientTable,
  classify,
  remoteUsersOf,
  sendingStatus,
  userKey,
  withRemoteClients,
} from '../../../../src/shared/proteus/recipients.js';

const HERE = 'a.example';
const THERE = 'b.example';
const alice = { id: 'alice', domain: HERE, client: 'a1' };
const reportAll: MismatchStrategy = { kind: 'report_all' };

const to = (domain: string, user: string, client: string): OtrRecipient => ({
  domain,
  user,
  client,
  text: new Uint8Array([1]),
});
const table = (entries: Record<string, string[]>): ClientTable =>
  new Map(Object.entries(entries).map(([k, clients]) => [k, new Set(clients)]));

/** Alice (a1 sends, a2), Bob (b1, b2) here, Carol (c1) on another backend. */
const members = () =>
  table({
    [userKey(HERE, 'alice')]: ['a1', 'a2'],
    [userKey(HERE, 'bob')]: ['b1', 'b2'],
    [userKey(THERE, 'carol')]: ['c1'],
  });
const everyone = [to(HERE, 'alice', 'a2'), to(HERE, 'bob', 'b1'), to(HERE, 'bob', 'b2'), to(THERE, 'carol', 'c1')];

describe('classify', () => {
  it('delivers a ciphertext for every client but the sender’s, in the order given', () => {
    const c = classify(members(), alice, [...everyone].reverse(), reportAll);
    expect(c.deliver).toEqual([...everyone].reverse());
    expect(c).toMatchObject({ missing: {}, redundant: {}, deleted: {} });
  });

  it('reports the clients left out, the sender’s other clients among them, and not the sender', () => {
    const c = classify(members(), alice, [to(HERE, 'bob', 'b2')], reportAll);
    expect(c.missing).toEqual({ [HERE]: { alice: ['a2'], bob: ['b1'] }, [THERE]: { carol: ['c1'] } });
    expect(c.deliver).toEqual([to(HERE, 'bob', 'b2')]);
  });

  it('calls a member’s unknown client deleted, and a stranger’s or the sending client redundant', () => {
    const extra = [to(HERE, 'bob', 'b10'), to(HERE, 'bob', 'b9'), to(HERE, 'dave', 'd10'), to(HERE, 'dave', 'd9')];
    const c = classify(members(), alice, [...everyone, ...extra, to(HERE, 'alice', 'a1')], reportAll);
    expect(c.deleted).toEqual({ [HERE]: { bob: ['b9', 'b10'] } });
    expect(c.redundant).toEqual({ [HERE]: { dave: ['d9', 'd10'], alice: ['a1'] } });
    expect(c.deliver).toEqual(everyone);
  });

  it('reports missing clients only as far as the strategy asks, by user and domain', () => {
    const none: OtrRecipient[] = [];
    const listed = [{ id: 'carol', domain: THERE }];
    const elsewhere = [{ id: 'carol', domain: HERE }];
    expect(classify(members(), alice, none, { kind: 'ignore_all' }).missing).toEqual({});
    expect(classify(members(), alice, none, { kind: 'report_only', users: listed }).missing).toEqual({
      [THERE]: { carol: ['c1'] },
    });
    expect(classify(members(), alice, none, { kind: 'report_only', users: elsewhere }).missing).toEqual({});
    expect(classify(members(), alice, none, { kind: 'ignore_only', users: listed }).missing).toEqual({
      [HERE]: { alice: ['a2'], bob: ['b1', 'b2'] },
    });
  });

  it('still finds the deleted and redundant clients when it ignores the missing ones', () => {
    const c = classify(members(), alice, [to(HERE, 'bob', 'b9'), to(HERE, 'dave', 'd1')], { kind: 'ignore_all' });
    expect(c.deleted).toEqual({ [HERE]: { bob: ['b9'] } });
    expect(c.redundant).toEqual({ [HERE]: { dave: ['d1'] } });
  });

  it('lists client ids by numeric value, all 64 bits of them', () => {
    const ids = ['ffffffffffffffff', '10', 'a', 'fffffffffffffffe', '9', '1f'];
    const c = classify(table({ [userKey(HERE, 'bob')]: ids }), alice, [], reportAll);
    expect(c.missing[HERE]!.bob).toEqual(['9', 'a', '10', '1f', 'fffffffffffffffe', 'ffffffffffffffff']);
  });
});

describe('sendingStatus', () => {
  it('answers with what classify found, at the given time, with nothing failed', () => {
    const c = classify(members(), alice, [to(HERE, 'dave', 'd1')], reportAll);
    expect(sendingStatus(c, '2024-01-01T00:00:00.000Z')).toEqual({
      time: '2024-01-01T00:00:00.000Z',
      missing: c.missing,
      redundant: { [HERE]: { dave: ['d1'] } },
      deleted: {},
      failed_to_send: {},
      failed_to_confirm_clients: {},
    });
  });
});

describe('remoteUsersOf', () => {
  it('lists the members of other backends only', () => {
    const t = table({ [userKey(HERE, 'bob')]: [], [userKey(THERE, 'carol')]: [], [userKey('c.example', 'erin')]: [] });
    expect(remoteUsersOf(t, HERE)).toEqual([
      { domain: THERE, id: 'carol' },
      { domain: 'c.example', id: 'erin' },
    ]);
  });

  it('compares whole domains, not prefixes', () => {
    expect(remoteUsersOf(table({ [userKey(`${HERE}.evil`, 'mallory')]: [] }), HERE)).toEqual([
      { domain: `${HERE}.evil`, id: 'mallory' },
    ]);
  });
});

describe('withRemoteClients', () => {
  it('takes a remote member’s clients from their backend’s list, and ignores lists of non-members', () => {
    const t = members();
    const view = withRemoteClients(
      t,
      { clients: { [userKey(THERE, 'carol')]: ['c2', 'c3'], [userKey(THERE, 'zed')]: ['z1'] }, unconfirmed: [] },
      everyone,
    );
    expect(view.table.get(userKey(THERE, 'carol'))).toEqual(new Set(['c2', 'c3']));
    expect(view.table.has(userKey(THERE, 'zed'))).toBe(false);
    expect(view.checked).toEqual(everyone);
    expect(t.get(userKey(THERE, 'carol'))).toEqual(new Set(['c1'])); // the caller's table is not changed
    // What classify then finds: c1 is deleted, c2 and c3 are missing.
    const c = classify(view.table, alice, view.checked, reportAll);
    expect(c.deleted).toEqual({ [THERE]: { carol: ['c1'] } });
    expect(c.missing).toEqual({ [THERE]: { carol: ['c2', 'c3'] } });
  });

  it('sends on unchecked the ciphertexts of members whose backend could not be asked', () => {
    const provided = [...everyone, to(THERE, 'carol', 'c10'), to(THERE, 'carol', 'c9')];
    const view = withRemoteClients(members(), { clients: {}, unconfirmed: [userKey(THERE, 'carol')] }, provided);
    expect(view.checked).toEqual(everyone.slice(0, 3));
    expect(view.unconfirmed).toEqual(provided.slice(3));
    expect(view.failedToConfirm).toEqual({ [THERE]: { carol: ['c1', 'c9', 'c10'] } });
    // Carol is out of the table, so her clients are neither missing nor deleted.
    expect(view.table.has(userKey(THERE, 'carol'))).toBe(false);
    expect(classify(view.table, alice, view.checked, reportAll).missing).toEqual({});
  });

  it('drops the ciphertexts of unconfirmed users who are not members', () => {
    const view = withRemoteClients(members(), { clients: {}, unconfirmed: [userKey(THERE, 'zed')] }, [
      ...everyone,
      to(THERE, 'zed', 'z1'),
    ]);
    expect(view.checked).toEqual(everyone);
    expect(view.unconfirmed).toEqual([]);
    expect(view.failedToConfirm).toEqual({});
  });
});
