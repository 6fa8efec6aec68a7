// The Account object's stores over a Durable Object's SQLite: what test/unit/objects/account-stores.test.ts asserts on.
import { ClaimableStore } from '../../src/objects/account/claimable-store.js';
import { ConnectionStore } from '../../src/objects/account/connection-store.js';
import { ConversationListStore } from '../../src/objects/account/conversation-list-store.js';
import { MovedStore } from '../../src/objects/account/moved-store.js';
import { PropertyStore } from '../../src/objects/account/property-store.js';
import type { ConnectionRecord } from '../../src/shared/accounts/material.js';
import type { Scenario } from './scenarios.js';

const side = (status: ConnectionRecord['status'], lastUpdate: number): ConnectionRecord => ({
  fromUser: 'alice',
  toDomain: 'example.com',
  toUser: 'bob',
  status,
  convDomain: 'example.com',
  convId: 'c1',
  lastUpdate,
  statusBeforeLegalhold: null,
});

const c = (id: string, domain = 'example.com') => ({ domain, id });

export const accountStoresScenarios: Record<string, Scenario> = {
  /** A join or leave carried out late does not undo a newer one; pages go in (domain, id) order. */
  'conversation-list-late-writes': (sql) => {
    const store = new ConversationListStore(sql);
    store.put(c('b'), false, 20);
    store.put(c('b'), true, 10);
    store.put(c('a'), true, 10);
    store.put(c('d'), true, 10);
    store.put(c('e', 'remote.example'), true, 10);
    store.put(c('d'), false, 30);
    store.put(c('d'), true, 40);
    store.put(c('f'), true, 10);
    return {
      all: store.page(10),
      afterA: store.page(2, c('a')),
      inDomain: store.pageIn('example.com', 10, 'a'),
    };
  },

  /** A put carried out late (an effect after a crash) does not undo a newer one, nor a newer forget. */
  'connection-late-writes': (sql) => {
    const store = new ConnectionStore(sql);
    store.put(side('accepted', 20));
    store.put(side('sent', 10));
    const afterLatePut = store.get('alice', 'example.com', 'bob')?.status;
    store.forget('example.com', 'bob', 15);
    const afterOldForget = store.get('alice', 'example.com', 'bob')?.status;
    store.forget('example.com', 'bob', 25);
    return { afterLatePut, afterOldForget, afterForget: store.get('alice', 'example.com', 'bob') ?? null };
  },

  /** A property write carried out late loses to a newer write, a newer delete and a newer clearing. */
  'property-late-writes': (sql) => {
    const store = new PropertyStore(sql);
    store.put('a', '"new"', 20);
    store.put('a', '"old"', 10);
    store.put('b', '"b"', 10);
    store.put('b', null, 20);
    store.put('b', '"late"', 15);
    store.put('c', '"c"', 10);
    store.clear(30);
    store.put('c', '"before the clearing"', 25);
    store.put('d', '"after"', 40);
    return { all: store.all(), besidesD: store.countBesides('d') };
  },

  /** Only the yes is kept, and a claim that asked before a forget does not keep its answer. */
  'claimable-forget-wins': (sql) => {
    const store = new ClaimableStore(sql);
    const asked = store.generation();
    store.forget();
    store.keep(asked, 1);
    const afterStale = store.known();
    store.keep(store.generation(), 2);
    return { afterStale, afterFresh: store.known() };
  },

  /** An object moved by a version that moved fewer kinds (no version column) moves again. */
  'moved-by-an-older-version': (sql) => {
    sql.exec('CREATE TABLE moved (user TEXT PRIMARY KEY, at INTEGER NOT NULL, pending INTEGER NOT NULL)');
    sql.exec("INSERT INTO moved (user, at, pending) VALUES ('alice', 1, 0)");
    const store = new MovedStore(sql);
    const before = store.has();
    store.mark('alice', 2, false);
    return { before, after: new MovedStore(sql).has() };
  },
};
