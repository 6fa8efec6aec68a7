/**
 * A row holds at most 2 MB, in a Durable Object's SQLite as in D1. Texts that may be longer (a
 * large MLS group's commit, its GroupInfo, what other backends are told of it) keep their first
 * part in their own row and the rest in a table of parts, in parts of PART_CHARS: UTF-16 code
 * units, each at most 3 bytes of UTF-8.
 */
const PART_CHARS = 500_000;

/** A text in parts of at most `size` characters (one part when it fits; an empty text is one empty part). */
export function splitText(text: string, size = PART_CHARS): string[] {
  if (text.length <= size) return [text];
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += size) parts.push(text.slice(at, at + size));
  return parts;
}
