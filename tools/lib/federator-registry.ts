// Where the federators of the backends started from one checkout really listen: `npm start` takes
// free ports when the configured ones are held (by a backend of another checkout, say), so the
// DNS server of each backend answers for the others from here, not from their configuration.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listensOn } from './process-tree.js';

interface Entry {
  pid: number;
  host: string;
  port: number;
}

export interface FederatorRegistry {
  /** Where the federator of `domain` listens, if a running backend registered it. */
  find(domain: string): { host: string; port: number } | undefined;
  /**
   * Registers this process's federator of `domain`, unless a running one holds the domain (the
   * backend started first keeps it); the function returned takes the entry back.
   */
  register(domain: string, at: { host: string; port: number }): () => void;
}

const LIVENESS_HOLDS_MS = 1000;

export function federatorRegistry(dir: string): FederatorRegistry {
  const file = (domain: string) => join(dir, `${domain}.json`);
  const read = (domain: string): Entry | undefined => {
    try {
      return JSON.parse(readFileSync(file(domain), 'utf8')) as Entry;
    } catch {
      return undefined;
    }
  };
  // An entry of a backend that is gone (its process, or its listener) counts as none. Whether it
  // listens is read from /proc (every socket, every descriptor of the process): asked on every
  // DNS lookup, that cost more than the federation call it served, so an answer holds a second.
  const checked = new Map<string, { listening: boolean; until: number }>();
  const listening = (e: Entry) => {
    const key = `${e.pid}:${e.port}`;
    const known = checked.get(key);
    if (known !== undefined && Date.now() < known.until) return known.listening;
    const now = { listening: listensOn(e.pid, e.port), until: Date.now() + LIVENESS_HOLDS_MS };
    checked.set(key, now);
    return now.listening;
  };
  const live = (e: Entry | undefined) => (e !== undefined && listening(e) ? e : undefined);
  return {
    find(domain) {
      const e = live(read(domain));
      return e === undefined ? undefined : { host: e.host, port: e.port };
    },
    register(domain, at) {
      if (live(read(domain)) !== undefined) return () => {};
      mkdirSync(dir, { recursive: true });
      const entry: Entry = { pid: process.pid, ...at };
      const tmp = `${file(domain)}.${process.pid}`;
      writeFileSync(tmp, JSON.stringify(entry));
      renameSync(tmp, file(domain));
      return () => {
        const now = read(domain);
        if (now?.pid === entry.pid && now.port === entry.port) rmSync(file(domain), { force: true });
      };
    },
  };
}
