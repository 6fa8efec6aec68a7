/** Components that answer federation calls. */
const COMPONENTS = new Set(['brig', 'galley', 'cargohold']);
const RPC = /^[a-z0-9-]+(@v\d+)?$/;
const DOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export const isDomain = (d: string | undefined): d is string => d !== undefined && DOMAIN.test(d);

export interface Call {
  component: string;
  rpc: string;
}

/** The `count` segments after `/<prefix>/`; federation paths take no query string. */
function segments(url: string, prefix: string, count: number): string[] | undefined {
  if (url.includes('?')) return undefined;
  const parts = url.split('/');
  return parts.length === count + 2 && parts[0] === '' && parts[1] === prefix ? parts.slice(2) : undefined;
}

function call(component: string | undefined, rpc: string | undefined): Call | undefined {
  if (component === undefined || rpc === undefined || !COMPONENTS.has(component) || !RPC.test(rpc)) return undefined;
  return { component, rpc };
}

/** `/federation/{component}/{rpc}`: what a remote calls. */
export function inwardCall(url: string): Call | undefined {
  const s = segments(url, 'federation', 2);
  return s && call(s[0], s[1]);
}

/** `/rpc/{domain}/{component}/{rpc}`: what the local worker calls. */
export function outwardCall(url: string): (Call & { domain: string }) | undefined {
  const s = segments(url, 'rpc', 3);
  const c = s && call(s[1], s[2]);
  return c !== undefined && isDomain(s![0]) ? { domain: s![0], ...c } : undefined;
}
