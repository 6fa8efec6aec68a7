import type { WorkerCall } from './shared-token.js';

/** brig's federation strategy and remotes, as `GET /i/federation/remotes` gives them. */
interface RemotesInfo {
  strategy: 'allowNone' | 'allowAll' | 'allowList' | 'allowDynamic';
  remotes: Array<{ domain: string }>;
  update_interval: number;
}

/**
 * Which backends this one federates with, asked of the local worker (brig's static list and the
 * dynamic one in D1) and kept for brig's `update_interval` seconds, as wire's federator does.
 */
export class Remotes {
  private cached: { until: number; info: RemotesInfo } | undefined;

  constructor(private readonly worker: WorkerCall) {}

  async allows(domain: string): Promise<boolean> {
    const { strategy, remotes } = await this.info();
    if (strategy === 'allowAll') return true;
    if (strategy === 'allowNone') return false;
    return remotes.some((r) => r.domain === domain);
  }

  private async info(): Promise<RemotesInfo> {
    const now = Date.now();
    if (this.cached !== undefined && now < this.cached.until) return this.cached.info;
    const res = await this.worker('/i/federation/remotes');
    if (!res.ok) throw new Error(`GET /i/federation/remotes: ${res.status}`);
    const info = (await res.json()) as RemotesInfo;
    this.cached = { until: now + Math.max(1, info.update_interval) * 1000, info };
    return info;
  }
}
