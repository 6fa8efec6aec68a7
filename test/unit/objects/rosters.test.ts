import { describe, expect, it } from 'vitest';
import { workerdSuite } from '../../helpers/workerd.js';

// The scenarios run in workerd, on a Durable Object's SQLite (test/workerd/rosters.scenarios.ts).
const run = workerdSuite('rosters');

describe("a group's messages addressed to the rosters the notification objects keep", () => {
  it("a notification object's roster: seeded, read but the sender's client, changed after, kept", async () => {
    expect(await run('roster-store')).toEqual({
      seeded: [
        ['alice', ['a2'], ''],
        ['bob', ['b1'], ''],
      ],
      changed: [
        ['alice', ['a1', 'a2'], ''],
        ['carol', ['c1'], ''],
      ],
      other: [],
      restarted: [['alice', ['a1', 'a2'], '']],
    });
  });

  it('seeds each object once, then sends a commit only its added and removed clients, where they are', async () => {
    expect(await run('group-roster')).toEqual({
      seeding: {
        roster: { group: 'Z3JvdXA=', except: ['alice', 'a1'] },
        objects: { 'o-a': { seed: [['alice', 'a1']] }, 'o-b': { seed: [['bob', 'b1']] } },
        writes: 1,
      },
      kept: true,
      commit: {
        objects: {
          'o-a': {},
          'o-b': { change: { add: [], remove: [['bob', 'b1']] } },
          'o-d': { change: { add: [['dave', 'd1']], remove: [] } },
        },
        writes: 0,
      },
      // Bob's object holds none of the group's clients any more; the other backend's client is in none.
      after: { roster: { group: 'Z3JvdXA=' }, objects: { 'o-a': {}, 'o-d': {} } },
      // The group's users were looked up once; after that only those a commit adds or removes.
      asked: [
        ['alice', 'bob'],
        ['dave', 'bob'],
      ],
    });
  });
});
