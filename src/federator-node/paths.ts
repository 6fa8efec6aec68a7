/** Components that answer federation calls. */
const COMPONENTS = new Set(['brig', 'galley', 'cargohold']);
const RPC = /^[a-z0-9-]+(@v\d+)?$/;
const DOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export const isDomain = (d: string | undefined): d is string => d !== undefined && DOMAIN.test(d);

export interface Call {
  component: string;
  rpc: string;
}

/** `/federation/{component}/{rpc}` (inward) or `/rpc/{domain}/{component}/{rpc}` (outward); no query string. */
export function parseCall(url: string, prefix: 'federation'): Call | undefined;
export function parseCall(url: string, prefix: 'rpc'): (Call & { domain: string }) | undefined;
export function parseCall(url: string, prefix: 'federation' | 'rpc') {
  if (url.includes('?')) return undefined;
  const parts = url.split('/');
  const [empty, head, ...rest] = parts;
  if (empty !== '' || head !== prefix) return undefined;
  const [domain, component, rpc] = prefix === 'rpc' ? rest : [undefined, ...rest];
  if (rest.length !== (prefix === 'rpc' ? 3 : 2)) return undefined;
  if (component === undefined || rpc === undefined || !COMPONENTS.has(component) || !RPC.test(rpc)) return undefined;
  if (prefix === 'rpc' && !isDomain(domain)) return undefined;
  return prefix === 'rpc' ? { domain, component, rpc } : { component, rpc };
}
