import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Collects what starting left behind (the bundle, the migrations, the configuration texts: ~50 MB
 * of an idle backend's resident memory). V8 collects when JavaScript allocates, and an idle
 * backend's process allocates nothing, so without this the garbage stays until the first load.
 */
export function collectStartUpGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
