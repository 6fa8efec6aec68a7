// The group rosters on both sides, over a Durable Object's SQLite: what
// test/unit/objects/rosters.test.ts asserts on. RosterStore is a notification object's;
// GroupRoster, the conversation object's, addresses a group's messages to them.
import type { ConversationDb } from '../../src/objects/db/conversation-db.js';
import { GroupRoster } from '../../src/objects/conversation/mls/group-roster.js';
import type { GroupRow } from '../../src/objects/conversation/mls/group-row.js';
import type { NotificationShards } from '../../src/objects/notification-shards.js';
import { RosterStore } from '../../src/objects/notifications/roster-store.js';
import type { Scenario } from './scenarios.js';

const D = 'example.com';
const leaf = (index: number, user: string, client: string, domain = D) => ({
  index,
  user,
  client,
  domain,
  removalPending: false,
});

/** Users' notification objects: `o-<first letter>`; each lookup counted. */
function objects() {
  const asked: string[][] = [];
  const shards = {
    objectsOf: async (users: readonly string[]) => {
      asked.push([...users]);
      return new Map(users.map((u) => [u, `o-${u[0]}`]));
    },
  } as unknown as NotificationShards;
  return { shards, asked };
}

const message = { channel: `${D}/conv`, head: '[]', tail: '', to: [] };
const sorted = <T>(m: ReadonlyMap<string, T>) => Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)));

export const rosterScenarios: Record<string, Scenario> = {
  /** A notification object's roster: seeded, changed after a message, read again after a restart. */
  'roster-store': (sql) => {
    const store = new RosterStore(sql);
    const seeded = store.entries({
      group: 'g',
      except: ['alice', 'a1'],
      seed: [
        ['alice', 'a1'],
        ['alice', 'a2'],
        ['bob', 'b1'],
      ],
      change: { add: [['carol', 'c1']], remove: [['bob', 'b1']] },
    });
    store.after({ group: 'g', change: { add: [['carol', 'c1']], remove: [['bob', 'b1']] } });
    const changed = store.entries({ group: 'g' });
    const other = store.entries({ group: 'h' });
    const restarted = new RosterStore(sql).entries({ group: 'g', except: ['carol', 'c1'] });
    return { seeded, changed, other, restarted };
  },

  /** The conversation object's side: seeds once, then sends each commit's change where it applies. */
  'group-roster': async (sql) => {
    const db = { $client: { sql } } as unknown as ConversationDb;
    const group = {
      groupId: 'Z3JvdXA=',
      leaves: new Map(
        [leaf(0, 'alice', 'a1'), leaf(1, 'bob', 'b1'), leaf(2, 'carol', 'c1', 'remote.example')].map((l) => [
          l.index,
          l,
        ]),
      ),
      rosterKept: false,
    } as unknown as GroupRow;
    const { shards, asked } = objects();
    const first = new GroupRoster(db, shards, group, D);
    const seeding = await first.send(message, leaf(0, 'alice', 'a1'));
    const second = new GroupRoster(db, shards, group, D);
    const commit = await second.send(message, leaf(0, 'alice', 'a1'), {
      add: [leaf(3, 'dave', 'd1')],
      remove: [leaf(1, 'bob', 'b1')],
    });
    const after = await new GroupRoster(db, shards, group, D).send(message, undefined);
    return {
      seeding: { roster: seeding.delivery.roster, objects: sorted(seeding.objects), writes: first.writes.length },
      kept: group.rosterKept,
      commit: { objects: sorted(commit.objects), writes: second.writes.length },
      after: { roster: after.delivery.roster, objects: sorted(after.objects) },
      asked,
    };
  },
};
