/** The `user:password` of a request's basic authentication, if it has one. */
export function basicCredentials(req: Request): string | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(req.headers.get('authorization') ?? '');
  if (m === null) return undefined;
  try {
    return atob(m[1]!);
  } catch {
    return undefined;
  }
}
