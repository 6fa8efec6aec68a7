// The README's two local backends, each as its own `npm start` (config/ and config/b.example.com/,
// with their federators and DNS servers, which find each other through the checkout's registry of
// federators), on free ports and fresh state on disk.
import { npmStart, type StartedBackend } from './npm-start.js';

export const A = 'example.com';
export const B = 'b.example.com';

export interface BenchPair {
  a: StartedBackend;
  b: StartedBackend;
  dispose(): Promise<void>;
}

export async function benchPair(): Promise<BenchPair> {
  const a = await npmStart();
  try {
    const b = await npmStart([], { config: `config/${B}` });
    return { a, b, dispose: async () => void (await Promise.all([a.stop(), b.stop()])) };
  } catch (err) {
    await a.stop();
    throw err;
  }
}
