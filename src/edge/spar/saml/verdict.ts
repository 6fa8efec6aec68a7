// How a sign-in's outcome reaches the client, as wire's spar renders it: for the web app a page
// that tells the window that opened it (postMessage), for the mobile apps a redirect to the URL
// they gave at initiate-login, with the cookie or the error's label in it.
import { toBase64 } from '../../../shared/base64.js';
import type { VerdictFormat } from '../../../shared/db/schema-spar.js';
import { escapeXml } from '../xml.js';

export type Verdict =
  | { granted: true; user: string; cookie: string }
  | { granted: false; label: string; errors: string[] };

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd"><html xml:lang="en" xmlns="http://www.w3.org/1999/xhtml"><head>';
const NO_CACHE = { 'cache-control': 'no-cache, no-store', pragma: 'no-cache' };

function page(title: string, message: unknown): string {
  return (
    `${HEAD}  <title>${escapeXml(title)}</title>   <script type="text/javascript">       const receiverOrigin = '*';` +
    `       window.opener.postMessage(${JSON.stringify(message).replace(/</g, '\\u003c')}, receiverOrigin);   </script></head></html>`
  );
}

const substitute = (template: string, values: Record<string, string>) =>
  Object.entries(values).reduce(
    (url, [name, value]) => url.replaceAll(`$${name}`, value).replaceAll(`%24${name}`, value),
    template,
  );

export function verdictResponse(format: VerdictFormat, v: Verdict): Response {
  if (format.kind === 'mobile') {
    const location = v.granted
      ? substitute(format.success, { cookie: v.cookie, userid: v.user })
      : substitute(format.error, { label: v.label });
    const headers: Record<string, string> = { ...NO_CACHE, location };
    if (v.granted) headers['set-cookie'] = v.cookie;
    else headers['content-type'] = 'application/json';
    return new Response(v.granted ? null : JSON.stringify(v.errors), { status: 303, headers });
  }
  const html = v.granted
    ? page('wire:sso:success', { type: 'AUTH_SUCCESS' })
    : page(`wire:sso:error:${v.label}`, { payload: { errors: v.errors, label: 'forbidden' }, type: 'AUTH_ERROR' });
  const headers: Record<string, string> = { ...NO_CACHE, 'content-type': 'text/html;charset=utf-8' };
  if (v.granted) headers['set-cookie'] = v.cookie;
  return new Response(html, { status: 200, headers });
}

/** An error before any verdict (a response that cannot be read or trusted): a page with the error's status. */
export function errorPage(status: number, label: string, message: string): Response {
  const html =
    `<head>\n  <title>wire:sso:error:${escapeXml(label)}</title>\n</head>\n</body>\n  sorry, something went wrong :(<br>\n` +
    `  please copy the following debug information to your clipboard and provide it when opening an issue in our customer support.<br><br>\n` +
    `  <pre>${toBase64(new TextEncoder().encode(message))}</pre>\n</body>`;
  return new Response(html, { status, headers: { ...NO_CACHE, 'content-type': 'text/html' } });
}
