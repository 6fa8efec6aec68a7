/**
 * The access token a request carries, wherever nginz accepts it: `Authorization: Bearer`, the
 * `access_token` query parameter (websockets), or an `AWS4-HMAC-SHA256 …Credential=…` header.
 */
export function accessTokenOf(req: Request, url: URL): string | undefined {
  const header = req.headers.get('authorization')?.trim();
  if (header !== undefined) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(header);
    if (bearer) return bearer[1];
    // nginz takes `Credential=` wherever it stands among the signature's parameters, up to a comma.
    const aws = /^AWS4-HMAC-SHA256 .*?Credential=([^,]+)/.exec(header);
    if (aws) return aws[1]!.trim();
  }
  return url.search === '' ? undefined : (url.searchParams.get('access_token') ?? undefined);
}
