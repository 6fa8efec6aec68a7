import { describe, expect, it } from 'vitest';
import { readSource, sourceFiles } from './source-graph.js';

/**
 * Functions of the edge that take a Hono `Context` but read nothing of HTTP from it (no request, no
 * response): work that belongs in plain functions taking `Deps` and the caller, which handlers,
 * RPCs and jobs all call. Each one left is counted; the number only goes down (185 with 143 of
 * them plain work before the access checks and the 1:1 and connect conversations took `Deps`).
 */
const BUDGET = 127;

/** What of HTTP a handler reads or answers through its context. */
const HTTP = /\bc\.(json|body|text|header|req|redirect|html|newResponse|res)\b/;

/** The text between a bracket at `open` and its match. */
function bracketed(text: string, open: number): string {
  const [start, end] = text[open] === '(' ? ['(', ')'] : ['{', '}'];
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === start) depth++;
    else if (text[i] === end && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

/** `file: name` of each declared function taking a Context that does not touch HTTP. */
function contextBoundWork(): string[] {
  return sourceFiles('src/edge').flatMap((path) => {
    const text = readSource(path);
    return [...text.matchAll(/^(?:export )?(?:async )?function (\w+)\s*(?:<[^>]*>)?\(/gm)].flatMap((m) => {
      const paramsAt = m.index + m[0].length - 1;
      const params = bracketed(text, paramsAt);
      if (!/\bc: Context\b/.test(params)) return [];
      const body = bracketed(text, text.indexOf('{', paramsAt + params.length + 2));
      return HTTP.test(body) ? [] : [`${path}: ${m[1]}`];
    });
  });
}

describe('plain functions', () => {
  it('take Deps rather than a Hono Context, except those still counted', () => {
    const bound = contextBoundWork();
    expect(bound.length, bound.join('\n')).toBeLessThanOrEqual(BUDGET);
  });
});
