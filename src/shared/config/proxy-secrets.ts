/**
 * The proxy's secrets file, in the syntax wire's proxy reads (Data.Configurator): groups of
 * `name = "value"` bindings, `#` comments, e.g. `secrets { giphy = "…"  spotify = "Basic …" }`.
 */

/** The secrets the proxy's routes add to the third-party requests. */
export const PROXY_SECRETS = ['giphy', 'youtube', 'googlemaps', 'soundcloud', 'spotify'] as const;
export type ProxySecret = (typeof PROXY_SECRETS)[number];

const TOKEN = /\s*(?:#[^\n]*\n?|([A-Za-z_][\w.-]*)|"((?:[^"\\]|\\.)*)"|(=|\{|\}))/y;

/** The file's string bindings by dotted name (`secrets.giphy`); a syntax error throws, naming where. */
export function parseConfigurator(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const groups: string[] = [];
  const tokens: string[][] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (m === null) {
      if (/^\s*$/.test(text.slice(at))) break;
      throw new Error(`unexpected text at offset ${at}`);
    }
    if (m[1] !== undefined) tokens.push(['name', m[1]]);
    else if (m[2] !== undefined) tokens.push(['string', JSON.parse(`"${m[2]}"`) as string]);
    else if (m[3] !== undefined) tokens.push([m[3]]);
  }
  for (let i = 0; i < tokens.length; i++) {
    const [kind, value] = tokens[i]!;
    if (kind === '}') {
      if (groups.pop() === undefined) throw new Error('unbalanced }');
    } else if (kind === 'name' && tokens[i + 1]?.[0] === '{') {
      groups.push(value!);
      i++;
    } else if (kind === 'name' && tokens[i + 1]?.[0] === '=' && tokens[i + 2]?.[0] === 'string') {
      out.set([...groups, value].join('.'), tokens[i + 2]![1]!);
      i += 2;
    } else throw new Error(`expected a group or name = "value" near ${value ?? kind}`);
  }
  if (groups.length > 0) throw new Error(`group ${groups.join('.')} is not closed`);
  return out;
}

/** The five secrets from the file's text; a missing one throws, naming it. */
export function proxySecrets(text: string): Record<ProxySecret, string> {
  const bindings = parseConfigurator(text);
  const out = {} as Record<ProxySecret, string>;
  for (const name of PROXY_SECRETS) {
    const value = bindings.get(`secrets.${name}`);
    if (value === undefined) throw new Error(`secrets.${name} is missing`);
    out[name] = value;
  }
  return out;
}
