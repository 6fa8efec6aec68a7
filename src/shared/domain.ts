const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * A domain name as wire-server's `mkDomain` accepts it, lowercased; `undefined` when it would refuse
 * it. Labels are 1–63 ASCII letters, digits and inner hyphens (a leading digit is fine); there are
 * at least two of them unless the name is `localhost`; the last one does not start with a digit (no
 * IP addresses); the whole name is at most 253 characters.
 */
export function normalizeDomain(text: string): string | undefined {
  if (text.length > 253) return undefined;
  const labels = text.split('.');
  if (!labels.every((label) => LABEL.test(label))) return undefined;
  const domain = text.toLowerCase();
  if (labels.length < 2 && domain !== 'localhost') return undefined;
  if (/^[0-9]/.test(labels.at(-1)!)) return undefined;
  return domain;
}
