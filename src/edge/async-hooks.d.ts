// workerd's AsyncLocalStorage (compatibility flag `nodejs_als`): only what src/shared/log.ts uses, as
// the worker's types leave Node's modules out.
declare module 'node:async_hooks' {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, work: () => R): R;
    getStore(): T | undefined;
  }
}
