import { describe, expect, it } from 'vitest';
import { readSource, sourceFiles } from './source-graph.js';

/** Where SQL may be written: the stores, and the database layer itself (schema, client, chunking). */
const mayHoldSql = (path: string) => path.endsWith('-store.ts') || /^src\/(edge|shared|objects)\/db\//.test(path);

/** What writing SQL looks like here: D1 statements, drizzle's builders and template, SQLite storage. */
const SQL_SIGNS: Array<[what: string, pattern: RegExp]> = [
  ['a prepared D1 statement', /\.prepare\(/],
  ['a drizzle query builder', /\b(db|d1|DB)\s*\.\s*(select|insert|update|delete|exec|run|all)\s*\(/],
  ['the drizzle-orm package', /from 'drizzle-orm/],
  ['raw Durable Object SQL', /\.sql\.exec\(/],
];

describe('the house', () => {
  it('writes SQL only in *-store.ts files (and the database layers, src/{edge,shared,objects}/db/)', () => {
    const offences = sourceFiles('src').flatMap((path) => {
      if (mayHoldSql(path)) return [];
      const text = readSource(path);
      return SQL_SIGNS.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${path}: ${what}`);
    });
    expect(offences).toEqual([]);
  });
});

/** Tables with one store: the only place their rows change (the Conversation object's order; the move into Account objects). */
const GROUPS = [
  'src/objects/conversation/mls/group-store.ts',
  // D1's rows of earlier versions, read on their way into the objects.
  'src/objects/conversation/legacy-conversation-store.ts',
];
const OWNED_TABLES: Record<string, string | string[]> = {
  mls_group_clients: GROUPS,
  mls_proposals: GROUPS,
  mls_group_infos: GROUPS,
  mls_subconversations: GROUPS,
  // What earlier versions kept in D1, on its way into the Account objects.
  mls_key_packages: 'src/shared/accounts/legacy-account-store.ts',
  // Connections are in the Account objects; D1 keeps who has any to each remote domain.
  remote_connections: 'src/edge/brig/connections/remote-connection-store.ts',
};

/** The drizzle name of a table (`mls_group_clients` → `mlsGroupClients`). */
const camel = (table: string) => table.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

describe('a table owned by one store', () => {
  it('is read and written by that store only; others ask its owner', () => {
    const offences = sourceFiles('src').flatMap((path) => {
      // The schemas: D1's, and the tables a Conversation object makes.
      if (path.startsWith('src/shared/db/') || path.startsWith('src/objects/db/')) return [];
      const text = readSource(path);
      return Object.entries(OWNED_TABLES)
        .filter(
          ([table, owner]) =>
            ![owner].flat().includes(path) && new RegExp(`\\b(${table}|${camel(table)})\\b`).test(text),
        )
        .map(([table]) => `${path}: ${table}`);
    });
    expect(offences).toEqual([]);
  });
});
