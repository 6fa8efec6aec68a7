import { ApiError, type ErrorSpec } from './errors/api-error.js';

/** Paging positions handed to clients: JSON, base64url, opaque to them. */
export function encodePagingState(position: unknown): string {
  return btoa(JSON.stringify(position)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** The position back, or `invalid` (a 400) when the text is not one this backend made. */
export function decodePagingState<T>(state: string, isPosition: (v: unknown) => v is T, invalid: ErrorSpec): T {
  try {
    const v = JSON.parse(atob(state.replace(/-/g, '+').replace(/_/g, '/'))) as unknown;
    if (isPosition(v)) return v;
  } catch {
    // refused below
  }
  throw new ApiError(invalid);
}

/** The commonest position: two strings (a domain and an id). */
export const isStringPair = (v: unknown): v is [string, string] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string';
