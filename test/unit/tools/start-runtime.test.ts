import type { Miniflare } from 'miniflare';
import { describe, expect, it } from 'vitest';
import { startRuntime } from '../../../tools/lib/backend.js';

/** A runtime that is ready, or fails to be with this error; it counts its disposals. */
function runtime(failure?: Error) {
  const made = { disposed: 0 };
  const mf = {
    ready: failure === undefined ? Promise.resolve(new URL('http://127.0.0.1:1/')) : Promise.reject(failure),
    dispose: async () => {
      made.disposed++;
    },
  };
  mf.ready.catch(() => {});
  return Object.assign(made, { mf: mf as unknown as Miniflare });
}

const inUse = () => Object.assign(new Error('Address already in use'), { code: 'ERR_ADDRESS_IN_USE' });

describe('starting the runtime', () => {
  it('starts again when a port the system picked was taken meanwhile, disposing of the failed runtime', async () => {
    const tries = [runtime(inUse()), runtime()];
    let n = 0;
    const mf = await startRuntime({ port: 0, internalPort: 0 }, async () => tries[n++]!.mf);
    expect(mf).toBe(tries[1]!.mf);
    expect(tries.map((t) => t.disposed)).toEqual([1, 0]);
  });

  it('gives up after three tries, and at once on ports asked for by number or on other errors', async () => {
    let n = 0;
    const always = async () => {
      n++;
      return runtime(inUse()).mf;
    };
    await expect(startRuntime({ port: 0, internalPort: 0 }, always)).rejects.toMatchObject({
      code: 'ERR_ADDRESS_IN_USE',
    });
    expect(n).toBe(3);
    n = 0;
    await expect(startRuntime({ port: 8080, internalPort: 0 }, always)).rejects.toMatchObject({
      code: 'ERR_ADDRESS_IN_USE',
    });
    expect(n).toBe(1);
    n = 0;
    const broken = async () => {
      n++;
      return runtime(new Error('bad config')).mf;
    };
    await expect(startRuntime({ port: 0, internalPort: 0 }, broken)).rejects.toThrow('bad config');
    expect(n).toBe(1);
  });
});
