// A SCIM User resource as a client sends it (POST, PUT, or the result of a PATCH), checked the way
// wire's spar checks it. Attribute names compare case-insensitively.
import { isValidEmail, isValidHandle, normalizeRichInfo, richInfoSize } from '../../brig/face.js';
import type { RichField, TeamRole } from '../../../shared/db/schema.js';
import { scimErrors } from './scim-error.js';

export const CORE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
/** Rich info as a map of field type to value. */
export const WIRE_EXTENSION = 'urn:ietf:params:scim:schemas:extension:wire:1.0:User';
/** Rich info as wire's `{version, fields}` list. */
export const WIRE_PROFILE = 'urn:wire:scim:schemas:profile:1.0';

const ROLES: readonly TeamRole[] = ['owner', 'admin', 'member', 'partner'];

export interface ScimUserInput {
  externalId: string;
  handle: string;
  /** displayName, when given. */
  displayName: string | undefined;
  /** The primary (else first) of `emails`. */
  email: string | undefined;
  /** ISO 639-1 language of `preferredLanguage`. */
  language: string | undefined;
  /** The one role of `roles`, when given. */
  role: TeamRole | undefined;
  active: boolean;
  richInfo: RichField[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const lowerKeys = (o: Json): Json => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toLowerCase(), v]));
const invalid = (detail: string) => scimErrors.badRequest('invalidValue', detail);

function stringOf(o: Json, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw scimErrors.badRequest('invalidSyntax', `${key} must be a string`);
  return v;
}

function emailOf(o: Json): string | undefined {
  const emails = o.emails;
  if (emails === undefined || emails === null) return undefined;
  if (!Array.isArray(emails) || !emails.every(isObject))
    throw scimErrors.badRequest('invalidSyntax', 'emails must be a list of objects');
  const entries = emails.map(lowerKeys);
  const chosen = entries.find((e) => e.primary === true) ?? entries[0];
  if (chosen === undefined) return undefined;
  const value = stringOf(chosen, 'value');
  if (value === undefined || !isValidEmail(value)) throw invalid(`${String(value)} is not a valid email address`);
  return value;
}

function roleOf(o: Json): TeamRole | undefined {
  const roles = o.roles;
  if (roles === undefined || roles === null) return undefined;
  if (!Array.isArray(roles)) throw scimErrors.badRequest('invalidSyntax', 'roles must be a list');
  const names = roles.map((r) => (isObject(r) ? lowerKeys(r).value : r));
  if (names.length === 0) return undefined;
  if (names.length > 1) throw invalid('A user cannot have more than one role.');
  const [role] = names;
  if (typeof role !== 'string' || !ROLES.includes(role as TeamRole))
    throw invalid(`The role '${String(role)}' is not valid. Valid roles are owner, admin, member, partner.`);
  return role as TeamRole;
}

/** Rich info from both of wire's spellings; the map's entries win over the list's. */
function richInfoOf(o: Json, limit: number): RichField[] {
  const fields: RichField[] = [];
  const ext = o[WIRE_EXTENSION.toLowerCase()];
  if (isObject(ext))
    for (const [type, value] of Object.entries(ext)) {
      if (typeof value !== 'string') throw invalid(`${WIRE_EXTENSION}: ${type} must be a string`);
      fields.push({ type, value });
    }
  const profile = o[WIRE_PROFILE.toLowerCase()];
  const list = isObject(profile) ? lowerKeys(profile).richinfo : undefined;
  const listed = isObject(list) ? lowerKeys(list).fields : undefined;
  if (Array.isArray(listed))
    for (const f of listed) {
      const field = isObject(f) ? lowerKeys(f) : {};
      if (typeof field.type !== 'string' || typeof field.value !== 'string')
        throw invalid(`${WIRE_PROFILE}: fields must have a string type and value`);
      fields.push({ type: field.type, value: field.value });
    }
  const normalized = normalizeRichInfo(fields);
  if (richInfoSize(normalized) > limit)
    throw scimErrors.tooLarge(`Rich info (all fields together) exceeds the size limit of ${limit} characters`);
  return normalized;
}

export function parseScimUser(body: unknown, method: 'post' | 'put', richInfoLimit: number): ScimUserInput {
  if (!isObject(body)) throw scimErrors.badRequest('invalidSyntax', 'A User must be a JSON object');
  const o = lowerKeys(body);
  if (o.password !== undefined)
    throw invalid(`Setting user passwords is not supported for security reasons. (${method})`);
  const userName = stringOf(o, 'username');
  if (userName === undefined) throw scimErrors.badRequest('invalidSyntax', 'userName is required');
  const handle = userName.toLowerCase();
  if (!isValidHandle(handle)) throw invalid(`${userName} is not a valid Wire handle`);
  const externalId = stringOf(o, 'externalid');
  if (externalId === undefined || externalId.trim() === '') throw invalid('externalId is required');
  const displayName = stringOf(o, 'displayname');
  if (displayName !== undefined && (displayName.length < 1 || displayName.length > 128))
    throw invalid('displayName must be 1 to 128 characters');
  const language = stringOf(o, 'preferredlanguage');
  if (language !== undefined && !/^[a-zA-Z]{2}$/.test(language))
    throw invalid('Could not parse language. Expected format is ISO 639-1.');
  const active = o.active ?? true;
  if (typeof active !== 'boolean') throw scimErrors.badRequest('invalidSyntax', 'active must be a boolean');
  return {
    externalId,
    handle,
    displayName,
    email: emailOf(o),
    language: language?.toLowerCase(),
    role: roleOf(o),
    active,
    richInfo: richInfoOf(o, richInfoLimit),
  };
}
