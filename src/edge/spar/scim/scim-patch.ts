// RFC 7644 §3.5.2 PATCH on a User, as far as wire supports it: the single-valued attributes it
// provisions and rich info fields. The result is checked like a replacement.
import { scimErrors } from './scim-error.js';
import { WIRE_EXTENSION, WIRE_PROFILE } from './scim-user-input.js';

const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ATTRIBUTES: Record<string, string> = {
  username: 'userName',
  displayname: 'displayName',
  externalid: 'externalId',
  active: 'active',
  roles: 'roles',
};
const RICH_PREFIXES = [`${WIRE_EXTENSION}:`, `${WIRE_PROFILE}:`].map((p) => p.toLowerCase());

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const invalidPath = (detail: string) => scimErrors.badRequest('invalidPath', detail);

/** The user's rich info as one map (the resource shows it twice), edited and written back. */
function richInfoMap(user: Json): Map<string, { type: string; value: string }> {
  const fields = ((user[WIRE_PROFILE] as Json | undefined)?.richInfo as Json | undefined)?.fields;
  const map = new Map<string, { type: string; value: string }>();
  for (const f of (fields as Array<{ type: string; value: string }> | undefined) ?? [])
    map.set(f.type.toLowerCase(), f);
  return map;
}

function applyOne(user: Json, rich: ReturnType<typeof richInfoMap>, raw: unknown): void {
  if (!isObject(raw)) throw scimErrors.badRequest('invalidSyntax', 'An operation must be an object');
  const op = String(raw.op ?? '').toLowerCase();
  if (op !== 'add' && op !== 'replace' && op !== 'remove')
    throw scimErrors.badRequest('invalidSyntax', `Unknown operation: ${String(raw.op)}`);
  const { path, value } = raw;
  if (path === undefined) {
    if (op === 'remove') throw scimErrors.badRequest('noTarget', 'remove needs a path');
    if (!isObject(value)) throw invalidPath('an operation without path needs an object value');
    for (const [k, v] of Object.entries(value)) {
      const attribute = ATTRIBUTES[k.toLowerCase()];
      if (attribute === undefined)
        throw invalidPath('we only support attributes username, displayname, externalid, active, roles');
      user[attribute] = v;
    }
    return;
  }
  if (typeof path !== 'string') throw invalidPath('path must be a string');
  if (path.includes('[')) throw invalidPath('can not lens into multi-valued attributes yet');
  const lower = path.toLowerCase();
  const prefix = RICH_PREFIXES.find((p) => lower.startsWith(p));
  if (prefix !== undefined) {
    const type = path.slice(prefix.length);
    if (op === 'remove') rich.delete(type.toLowerCase());
    else if (typeof value !== 'string') throw scimErrors.badRequest('invalidValue', `${type} must be a string`);
    else rich.set(type.toLowerCase(), { type, value });
    return;
  }
  const attribute = ATTRIBUTES[lower];
  if (attribute === undefined)
    throw invalidPath('we only support attributes username, displayname, externalid, active, roles');
  if (op !== 'remove') user[attribute] = value;
  else if (attribute === 'userName') throw scimErrors.badRequest('mutability', 'userName cannot be removed');
  else delete user[attribute];
}

/** The user after the PatchOp body's operations, in order. */
export function applyScimPatch(current: Json, body: unknown): Json {
  if (!isObject(body)) throw scimErrors.badRequest('invalidSyntax', 'A PatchOp must be a JSON object');
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_SCHEMA))
    throw scimErrors.badRequest('invalidSyntax', `The PatchOp schema ${PATCH_SCHEMA} is required`);
  const ops = body.Operations ?? body.operations;
  if (!Array.isArray(ops)) throw scimErrors.badRequest('invalidSyntax', 'Operations must be a list');
  const user: Json = { ...current };
  const rich = richInfoMap(current);
  for (const op of ops) applyOne(user, rich, op);
  delete user[WIRE_EXTENSION];
  user[WIRE_PROFILE] = { richInfo: { version: 0, fields: [...rich.values()] } };
  return user;
}
