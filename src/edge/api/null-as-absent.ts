import { z } from '@hono/zod-openapi';

// wire-server reads `null` in an optional field as the field's absence (aeson's `.:?`,
// schema-profunctor's `optField`), and Wire's clients send such nulls; zod refuses them. So before
// a body is validated, the nulls of optional fields that do not take null themselves are removed,
// guided by the schema. The schema itself is unchanged: validation and documentation stay as declared.

/** The parts of a zod definition the walk reads. */
interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  in?: z.ZodType;
  getter?: () => z.ZodType;
  values?: unknown[];
}

const defOf = (s: z.ZodType): Def => s._zod.def as unknown as Def;

/** Wrappers whose input is their inner schema's. */
const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'nonoptional',
  'readonly',
  'catch',
  'success',
]);

/** Whether the schema declares null as a value of its own (`.nullable()`, `z.null()`, a union with null). */
function takesNull(s: z.ZodType): boolean {
  const d = defOf(s);
  switch (d.type) {
    case 'null':
    case 'nullable':
      return true;
    case 'literal':
      return d.values!.includes(null);
    case 'union':
      return d.options!.some(takesNull);
    case 'intersection':
      return takesNull(d.left!) && takesNull(d.right!);
    case 'lazy':
      return takesNull(d.getter!());
    case 'pipe':
      // A preprocess reads the raw value itself.
      return defOf(d.in!).type === 'transform' || takesNull(d.in!);
    case 'transform':
    case 'custom':
      return true;
    default:
      return d.innerType !== undefined && WRAPPERS.has(d.type) ? takesNull(d.innerType) : false;
  }
}

/** A field that may be absent (optional or defaulted) and has no meaning of its own for null. */
const nullIsAbsence = (field: z.ZodType): boolean => field._zod.optin !== undefined && !takesNull(field);

const ABSENT = Symbol('absent');

/** The entries of `obj` walked with the schema of each key; the same object when nothing changes. */
function walkEntries(obj: Record<string, unknown>, schemaOf: (key: string) => z.ZodType | undefined): unknown {
  let kept: [string, unknown][] | undefined;
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = obj[key];
    const field = schemaOf(key);
    let next: unknown = value;
    if (field !== undefined) next = value === null && nullIsAbsence(field) ? ABSENT : walk(field, value);
    if (next !== value && kept === undefined) kept = keys.slice(0, i).map((k) => [k, obj[k]]);
    if (kept !== undefined && next !== ABSENT) kept.push([key, next]);
  }
  // fromEntries defines properties, so a `__proto__` key stays a key.
  return kept === undefined ? obj : Object.fromEntries(kept);
}

function walkArray(items: unknown[], schemaAt: (index: number) => z.ZodType | undefined): unknown {
  let out: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const schema = schemaAt(i);
    const next = schema === undefined ? items[i] : walk(schema, items[i]);
    if (next !== items[i]) (out ??= items.slice())[i] = next;
  }
  return out ?? items;
}

/** The first option that takes the value with its nulls removed, as zod's union picks the first that parses. */
function walkUnion(options: z.ZodType[], value: unknown): unknown {
  const candidates = options.map((o) => walk(o, value));
  if (candidates.every((c) => c === value)) return value;
  for (let i = 0; i < options.length; i++) {
    try {
      if (options[i]!.safeParse(candidates[i]).success) return candidates[i];
    } catch {
      // an option with async checks: not one to choose here
    }
  }
  return value;
}

function walk(schema: z.ZodType, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const d = defOf(schema);
  switch (d.type) {
    case 'object': {
      if (Array.isArray(value)) return value;
      const shape = d.shape!;
      return walkEntries(value as Record<string, unknown>, (k) => (Object.hasOwn(shape, k) ? shape[k] : d.catchall));
    }
    case 'record':
      return Array.isArray(value) ? value : walkEntries(value as Record<string, unknown>, () => d.valueType);
    case 'array':
      return Array.isArray(value) ? walkArray(value, () => d.element) : value;
    case 'tuple':
      return Array.isArray(value) ? walkArray(value, (i) => d.items![i] ?? d.rest ?? undefined) : value;
    case 'union':
      return walkUnion(d.options!, value);
    case 'intersection':
      return walk(d.right!, walk(d.left!, value));
    case 'lazy':
      return walk(d.getter!(), value);
    case 'pipe':
      return defOf(d.in!).type === 'transform' ? value : walk(d.in!, value);
    default:
      return d.innerType !== undefined && WRAPPERS.has(d.type) ? walk(d.innerType, value) : value;
  }
}

/**
 * `value` without the nulls that `schema` reads as absent: those of optional fields (at any
 * depth, in objects, arrays, records and the union option that takes the value) that do not take
 * null themselves. Nulls of required fields stay, so that validation refuses them.
 */
export const withoutAbsentNulls = (schema: z.ZodType, value: unknown): unknown => walk(schema, value);

/** `schema`, reading a null in an optional field as that field's absence (documented as `schema`). */
export function readingNullAsAbsent<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => walk(schema, value), schema);
}
