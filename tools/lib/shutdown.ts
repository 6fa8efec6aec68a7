/** The seed's graceful shutdown: after this long, the process exits whatever is still stopping. */
const GRACE_MS = 30_000;

/**
 * Runs `stop` once, then exits, when this process is asked to end: SIGINT, SIGTERM, SIGHUP (a
 * closed terminal), or its parent going away without a word (a killed `npm`), noticed by the
 * parent process id changing.
 */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`stopping (${why})`);
    setTimeout(() => {
      console.error(`not stopped after ${GRACE_MS / 1000} s: exiting anyway`);
      process.exit(1);
    }, GRACE_MS).unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`stopping failed: ${String(err)}`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutdown('parent process gone');
  }, 500).unref();
}
