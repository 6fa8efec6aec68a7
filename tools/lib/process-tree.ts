import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** The executable's name (`/proc/<pid>/comm`). */
  name: string;
  /** Resident memory, bytes. */
  rss: number;
}

function info(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name is in parentheses and may hold spaces; the fields after it are space-separated.
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    const rssKb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return { pid, ppid, name, rss: Number(rssKb ?? 0) * 1024 };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** `root` and every process below it, read from /proc (Linux). */
export function processTree(root: number): ProcessInfo[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => info(Number(d)))
    .filter((p): p is ProcessInfo => p !== undefined);
  const tree: ProcessInfo[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const pid = frontier.pop()!;
    const p = all.find((q) => q.pid === pid);
    if (p) tree.push(p);
    frontier.push(...all.filter((q) => q.ppid === pid).map((q) => q.pid));
  }
  return tree;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until none of `pids` is alive; the ones still alive after `timeoutMs` are returned. */
export async function waitGone(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether process `pid` holds the listening TCP socket of `port` (Linux: /proc/net/tcp*, /proc/<pid>/fd). */
export function listensOn(pid: number, port: number): boolean {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the 10th field.
      if (f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A' && f[9] !== undefined) inodes.add(`socket:[${f[9]}]`);
    }
  }
  if (inodes.size === 0) return false;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}
