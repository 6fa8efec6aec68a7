import { API_VERSIONS } from '../../shared/api-version.js';

/** `/api/swagger-ui`: a table of contents linking every version's documentation. */
export function tocPage(): Response {
  const rows = API_VERSIONS.map(
    (v) =>
      `<li>v${v}: <a href="/v${v}/api/swagger-ui">swagger-ui</a>; <a href="/v${v}/api/swagger.json">swagger.json</a></li>`,
  ).join('\n');
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>API documentation</title></head><body>
<h1>OpenAPI 3.0 documentation of every API version</h1>
<p>Supported and development versions are listed by <a href="/api-version">/api-version</a>.</p>
<h2>Public</h2><ul>
${rows}
</ul>
<h2>Internal (not versioned)</h2>
<p><a href="/v0/api-internal/swagger-ui">swagger-ui</a>; <a href="/v0/api-internal/swagger.json">swagger.json</a></p>
<h2>Events</h2>
<p><a href="/api/event-notification-schemas">event notification schemas</a></p>
</body></html>`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}
