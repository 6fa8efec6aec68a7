import { scimErrors } from './scim-error.js';

/** What SCIM clients look users up by: `userName eq "…"` or `externalId eq "…"`. */
export type ScimFilter = { attribute: 'username' | 'externalid'; value: string };

const FILTER = /^\s*(\S+)\s+(\S+)\s+"((?:[^"\\]|\\.)*)"\s*$/;
const CORE_PREFIX = 'urn:ietf:params:scim:schemas:core:2.0:user:';

export function parseScimFilter(text: string): ScimFilter {
  const m = FILTER.exec(text);
  if (m === null) throw scimErrors.badRequest('invalidFilter', `Could not parse filter: ${text}`);
  let attribute = m[1]!.toLowerCase();
  if (attribute.startsWith('urn:')) {
    if (!attribute.startsWith(CORE_PREFIX)) throw scimErrors.badRequest('invalidFilter', 'Unsupported schema');
    attribute = attribute.slice(CORE_PREFIX.length);
  }
  if (attribute !== 'username' && attribute !== 'externalid')
    throw scimErrors.badRequest('invalidFilter', 'Unsupported attribute');
  if (m[2]!.toLowerCase() !== 'eq') throw scimErrors.badRequest('invalidFilter', 'Operation not supported');
  return { attribute, value: JSON.parse(`"${m[3]!}"`) as string };
}
