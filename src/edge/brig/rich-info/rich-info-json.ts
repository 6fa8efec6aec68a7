import { z } from '@hono/zod-openapi';
import type { RichField } from '../../../shared/db/schema.js';

const richField = z.object({ type: z.string(), value: z.string() }).openapi('RichField');

/** What `GET /users/{uid}/rich-info` answers; version 0 is the only one. */
export const richInfoAssocList = z
  .object({ version: z.int(), fields: z.array(richField) })
  .openapi('RichInfoAssocList');

/** Field types compare case-insensitively. */
const typeKey = (f: RichField) => f.type.toLowerCase();

/** The list object's keys are case-insensitive in wire (it is parsed like a SCIM object). */
function lowerCaseKeys(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toLowerCase(), x]));
}

/** The list as a writer gives it: version 0, no field type twice. */
export const richInfoInput = z.preprocess(
  lowerCaseKeys,
  z
    .object({
      version: z.int().refine((v) => v === 0, { message: 'unknown version' }),
      fields: z.array(richField),
    })
    .refine((l) => new Set(l.fields.map(typeKey)).size === l.fields.length, { message: 'duplicate fields' }),
);

/** Fields with an empty value are dropped; of a type given twice the first stays. */
export function normalizeRichInfo(fields: readonly RichField[]): RichField[] {
  const seen = new Set<string>();
  return fields.filter((f) => {
    if (f.value === '' || seen.has(typeKey(f))) return false;
    seen.add(typeKey(f));
    return true;
  });
}

/** What counts against `setRichInfoLimit`: the characters of every type and value. */
export const richInfoSize = (fields: readonly RichField[]) =>
  fields.reduce((n, f) => n + [...f.type].length + [...f.value].length, 0);
