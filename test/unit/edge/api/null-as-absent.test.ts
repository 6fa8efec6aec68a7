import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { readingNullAsAbsent, withoutAbsentNulls } from '../../../../src/edge/api/null-as-absent.js';

const asset = z.object({ key: z.string(), size: z.enum(['preview', 'complete']).optional() });
const user = z.object({
  name: z.string(),
  label: z.string().optional(),
  accent_id: z.int().optional(),
  assets: z.array(asset).optional(),
  team: z.object({ name: z.string(), icon_key: z.string().optional() }).optional(),
  locale: z.string().default('en'),
  phone: z.unknown().optional(),
  message_timer: z.int().nullable().optional(),
  picture: z.union([z.string(), z.null()]).optional(),
});

describe('null as absent', () => {
  it('drops the nulls of optional fields, keeps those a field takes, and leaves required ones to fail', () => {
    const body = {
      name: 'A',
      label: null,
      accent_id: null,
      team: null,
      phone: null,
      message_timer: null,
      picture: null,
    };
    expect(readingNullAsAbsent(user).parse(body)).toEqual({
      name: 'A',
      locale: 'en',
      message_timer: null,
      picture: null,
    });
    expect(Object.keys(readingNullAsAbsent(user).parse(body))).not.toContain('label');
    expect(readingNullAsAbsent(user).parse({ name: 'A', locale: null }).locale).toBe('en');
    const required = readingNullAsAbsent(user).safeParse({ name: null });
    expect(required.success).toBe(false);
    expect(required.error?.issues[0]?.path).toEqual(['name']);
  });

  it('reaches objects inside objects, arrays, records, tuples, intersections and recursive schemas', () => {
    expect(withoutAbsentNulls(user, { name: 'A', team: { name: 'T', icon_key: null } })).toEqual({
      name: 'A',
      team: { name: 'T' },
    });
    expect(withoutAbsentNulls(user, { name: 'A', assets: [{ key: 'k', size: null }, null] })).toEqual({
      name: 'A',
      assets: [{ key: 'k' }, null],
    });
    const byKey = z.record(z.string(), asset);
    expect(withoutAbsentNulls(byKey, { a: { key: 'k', size: null }, b: null })).toEqual({ a: { key: 'k' }, b: null });
    const pair = z.tuple([asset, z.string()]);
    expect(withoutAbsentNulls(pair, [{ key: 'k', size: null }, 'x'])).toEqual([{ key: 'k' }, 'x']);
    const both = z.intersection(z.object({ a: z.string().optional() }), z.object({ b: z.int().optional() }));
    expect(withoutAbsentNulls(both, { a: null, b: null })).toEqual({});
    interface Tree {
      label?: string;
      children: Tree[];
    }
    const tree: z.ZodType<Tree> = z.lazy(() => z.object({ label: z.string().optional(), children: z.array(tree) }));
    expect(withoutAbsentNulls(tree, { label: null, children: [{ label: null, children: [] }] })).toEqual({
      children: [{ children: [] }],
    });
  });

  it('in a union, takes the first option that accepts the value without its nulls', () => {
    const restriction = z.discriminatedUnion('tag', [
      z.object({ tag: z.literal('allow_all'), value: z.null().optional() }),
      z.object({ tag: z.literal('allow_dynamic'), value: z.array(z.string()).optional(), note: z.string().optional() }),
    ]);
    expect(withoutAbsentNulls(restriction, { tag: 'allow_all', value: null })).toEqual({
      tag: 'allow_all',
      value: null,
    });
    expect(withoutAbsentNulls(restriction, { tag: 'allow_dynamic', value: null, note: null })).toEqual({
      tag: 'allow_dynamic',
    });
    const either = z.union([z.object({ a: z.string() }), z.object({ b: z.string().optional() })]);
    expect(withoutAbsentNulls(either, { b: null })).toEqual({});
    expect(withoutAbsentNulls(either, { a: null })).toEqual({ a: null });
  });

  it('leaves unknown keys, loose objects, preprocessed fields and other values as they are', () => {
    const loose = z.object({ a: z.string().optional() }).loose();
    expect(withoutAbsentNulls(loose, { a: null, other: null })).toEqual({ other: null });
    const raw = z.object({ a: z.preprocess((v) => v ?? 'none', z.string()).optional() });
    expect(readingNullAsAbsent(raw).parse({ a: null })).toEqual({ a: 'none' });
    for (const value of [null, 1, 'x', [1], undefined]) expect(withoutAbsentNulls(user, value)).toBe(value);
    const unchanged = { name: 'A', label: 'l', assets: [{ key: 'k' }] };
    expect(withoutAbsentNulls(user, unchanged)).toBe(unchanged);
  });

  it('keeps a `__proto__` key a key', () => {
    const body = JSON.parse('{"__proto__": {"x": 1}, "label": null}');
    const out = withoutAbsentNulls(z.object({ label: z.string().optional() }).loose(), body) as object;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
  });

  it('is documented as the schema it wraps', () => {
    const named = user.openapi('User');
    const doc = (schema: z.ZodType) => {
      const app = new OpenAPIHono();
      const route = createRoute({
        method: 'post',
        path: '/users',
        request: { body: { required: true, content: { 'application/json': { schema } } } },
        responses: { 204: { description: 'done' } },
      });
      app.openapi(route, (c) => c.body(null, 204));
      return app.getOpenAPIDocument({ openapi: '3.0.0', info: { title: 't', version: '1' } });
    };
    expect(doc(readingNullAsAbsent(named))).toEqual(doc(named));
    expect(doc(readingNullAsAbsent(user))).toEqual(doc(user));
  });
});
