// A federation RPC declared once: its component, name, request and response. The answering side
// serves it (federationRpc), the calling side calls it (FederatorClient.call) or queues it as a
// notification (notificationTo), all typed from the same declaration.
import type { z } from 'zod';
import type { FederatedComponent } from '../../shared/federation/components.js';

/** A notification's payloads by federation API version: each applies from its version up to the next one's. */
export type PayloadBundle = Record<number, unknown>;

export interface RpcContract<B extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly component: FederatedComponent;
  readonly rpc: string;
  readonly request: B;
  readonly response: R;
}

/** A request as its caller may hold it: its arrays and records read-only. */
export type RequestOf<B extends z.ZodType> = ReadOnly<z.input<B>>;
type ReadOnly<T> = T extends readonly (infer E)[]
  ? readonly ReadOnly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadOnly<T[K]> }
    : T;

/** Declares an RPC (see RpcContract). */
export const rpcContract = <B extends z.ZodType, R extends z.ZodType>(c: RpcContract<B, R>): RpcContract<B, R> => c;

/** A notification for another backend: the RPC, and its payload by the federation API version it applies from. */
export interface RemoteNotification {
  domain: string;
  component: FederatedComponent;
  rpc: string;
  bundle: PayloadBundle;
}

/**
 * A notification of `contract` for `domain`, with its payload from each federation API version on
 * (`{0: payload}` when every version takes the same).
 */
export const notificationTo = <B extends z.ZodType>(
  contract: RpcContract<B>,
  domain: string,
  bundle: Record<number, RequestOf<B>>,
): RemoteNotification => ({ domain, component: contract.component, rpc: contract.rpc, bundle });
