/** What the page waits for (a connection event, a message, a Welcome), checked after each handled notification. */
export class Waits {
  private waiting: Array<() => void> = [];

  /** Resolves with the first non-undefined `check()`, checked after each handled notification. */
  until<T>(check: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`page: no ${what} within ${timeoutMs} ms`)), timeoutMs);
      const attempt = () => {
        const found = check();
        if (found === undefined) this.waiting.push(attempt);
        else {
          clearTimeout(timer);
          resolve(found);
        }
      };
      attempt();
    });
  }

  /** A notification was handled: every waiting check is made again. */
  notificationHandled(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w();
  }
}
