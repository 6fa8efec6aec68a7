/**
 * wire-server's failed-login budget: at most `limit` failures in a window that opens at the
 * first failure and lasts `windowSeconds`; success does not reset it.
 */
export class FailureBudget {
  private failures = 0;
  private windowEnds = 0;

  /** Seconds until attempts are allowed again; 0 when the budget is not exhausted. */
  blockedFor(limit: number, now: number): number {
    if (now >= this.windowEnds) return 0;
    return this.failures >= limit ? Math.max(1, Math.ceil((this.windowEnds - now) / 1000)) : 0;
  }

  spend(windowSeconds: number, now: number): void {
    if (now >= this.windowEnds) {
      this.failures = 0;
      this.windowEnds = now + windowSeconds * 1000;
    }
    this.failures += 1;
  }
}
