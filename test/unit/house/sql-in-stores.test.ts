import { describe, expect, it } from 'vitest';
import { readSource, sourceFiles } from './source-graph.js';

/** Where SQL may be written: the stores, and the database layer itself (schema, client, chunking). */
const mayHoldSql = (path: string) => path.endsWith('-store.ts') || path.startsWith('src/edge/db/');

/** What writing SQL looks like here: D1 statements, drizzle's builders and template, SQLite storage. */
const SQL_SIGNS: Array<[what: string, pattern: RegExp]> = [
  ['a prepared D1 statement', /\.prepare\(/],
  ['a drizzle query builder', /\b(db|d1|DB)\s*\.\s*(select|insert|update|delete|exec|run|all)\s*\(/],
  ['the drizzle-orm package', /from 'drizzle-orm/],
  ['raw Durable Object SQL', /\.sql\.exec\(/],
];

describe('the house', () => {
  it('writes SQL only in *-store.ts files (and src/edge/db/)', () => {
    const offences = sourceFiles('src').flatMap((path) => {
      if (mayHoldSql(path)) return [];
      const text = readSource(path);
      return SQL_SIGNS.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${path}: ${what}`);
    });
    expect(offences).toEqual([]);
  });
});
