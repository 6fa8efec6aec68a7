// Files the worker imports as text (see tools/lib/bundle.ts and wrangler.toml's [[rules]]).
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const text: string;
  export default text;
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const text: string;
  export default text;
}
