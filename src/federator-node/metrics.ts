/** Request counters in Prometheus' text format (`GET /i/metrics` on both of the federator's ports). */
export class Metrics {
  private readonly counts = new Map<string, number>();

  count(name: string, labels: Record<string, string>): void {
    const key = `${name}{${Object.entries(labels)
      .map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`)
      .join(',')}}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  text(): string {
    const names = [...new Set([...this.counts.keys()].map((k) => k.slice(0, k.indexOf('{'))))];
    const lines = names.flatMap((n) => [
      `# TYPE ${n} counter`,
      ...[...this.counts].filter(([k]) => k.startsWith(`${n}{`)).map(([k, v]) => `${k} ${v}`),
    ]);
    return `${lines.join('\n')}\n`;
  }
}
