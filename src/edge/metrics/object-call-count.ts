import { addObjectCall } from '../db/query-count.js';

/** The bindings whose calls are counted, by the class they reach (METRICS, the counts' own sink, is not). */
const COUNTED = {
  ACCOUNTS: 'Account',
  CONVERSATIONS: 'Conversation',
  NOTIFICATIONS: 'NotificationShard',
  RATE_LIMITER: 'RateLimiter',
} as const;

/** A stub whose method calls count (`fetch` included); other properties pass through. */
function countingStub<T extends object>(stub: T, objectClass: string): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      // Neither a promise nor its parts: `then` stays what it is, so a stub can be returned from an async function.
      if (prop === 'then' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        addObjectCall(objectClass);
        return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
      };
    },
  });
}

function countingNamespace<N extends object>(ns: N, objectClass: string): N {
  return new Proxy(ns, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop !== 'get' && prop !== 'getByName') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) =>
        countingStub(Reflect.apply(value as (...a: unknown[]) => object, target, args), objectClass);
    },
  });
}

const envs = new WeakMap<Env, Env>();

/**
 * The bindings with the object namespaces counting each call the request makes
 * (`svc_object_calls_total`): the object calls per operation the capacity model takes.
 */
export function withCountingObjects(env: Env): Env {
  let counted = envs.get(env);
  if (counted === undefined) {
    const namespaces = Object.fromEntries(
      Object.entries(COUNTED).map(([binding, objectClass]) => [
        binding,
        countingNamespace(env[binding as keyof typeof COUNTED], objectClass),
      ]),
    );
    envs.set(env, (counted = { ...env, ...namespaces } as Env));
  }
  return counted;
}
