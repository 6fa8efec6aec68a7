/** A client id as the API writes it: 1–16 hex digits. */
export const CLIENT_ID_PATTERN = /^[0-9a-f]{1,16}$/;
