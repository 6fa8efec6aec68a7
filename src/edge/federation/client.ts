// The worker's way to other backends: an RPC through the federator sidecar's outward face, after
// agreeing on a federation API version with the remote.
import type { z } from 'zod';
import type { Config } from '../../shared/config/index.js';
import type { FederatedComponent } from '../../shared/federation/components.js';
import { FEDERATION_API_VERSIONS } from '../../shared/federation/versions.js';
import { ApiError } from '../api/errors/api-error.js';
import { federationErrors } from '../api/errors/federation.js';
import { federatorPost } from './federator-link.js';
import { MAX_BATCH, type notificationBatchOutcomes, notificationBatchRpc } from './notification-batch.js';
import type { PayloadBundle, RpcContract, RequestOf } from './contract.js';

/** The payload a remote speaking `version` gets: the one of the highest version not above it. */
export function payloadFor(bundle: PayloadBundle, version: number): { body: unknown } | undefined {
  const from = Object.keys(bundle)
    .map(Number)
    .filter((v) => v <= version)
    .sort((a, b) => a - b)
    .at(-1);
  return from === undefined ? undefined : { body: bundle[from] };
}

/** How long a negotiated version is trusted before the remote is asked again. */
const NEGOTIATED_FOR_MS = 60_000;
const negotiated = new Map<string, { version: number; until: number }>();

/** How long a remote without the batch RPC gets one call per notification before it is tried again. */
const UNBATCHED_FOR_MS = 600_000;
const unbatched = new Map<string, number>();
/** A batch's payloads stop growing past this many bytes (one notification may be larger alone). */
const BATCH_BYTES = 1 << 20;

/** A notification to send: the RPC and its payloads by version (see PayloadBundle). */
export interface Notification {
  component: FederatedComponent;
  rpc: string;
  bundle: PayloadBundle;
}

/**
 * What became of a notification sent in a batch: taken, suiting no version the remote speaks,
 * refused as a call of its own would have been (a client error), or not taken for now (a server
 * error: it and those after it wait).
 */
export type BatchedOutcome = 'sent' | 'unsuitable' | 'refused' | 'failed';

/** The remote's own error status, when the federator wrapped one (533). */
const innerCode = (err: ApiError) => {
  const code = (err.extra.inner as { code?: unknown } | undefined)?.code;
  return err.spec.status === 533 && typeof code === 'number' ? code : undefined;
};

/** The federator's refusal (or a remote's, which it wrapped), kept whole: status, label, data, inner. */
function refusal(status: number, text: string): ApiError {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not Wire's format: the status says it all
  }
  const { code: _code, label, message, ...more } = body;
  if (typeof label !== 'string') return new ApiError(federationErrors.remoteError, `federator answered ${status}`);
  const said = typeof message === 'string' ? message : label;
  return new ApiError({ status, label, message: said }, said, {}, more);
}

export class FederatorClient {
  private constructor(private readonly config: Config) {}

  static of(config: Config): FederatorClient {
    return new FederatorClient(config);
  }

  /** Calls an RPC on `domain` and checks the answer's shape. */
  async call<B extends z.ZodType, R extends z.ZodType>(
    domain: string,
    contract: RpcContract<B, R>,
    body: RequestOf<B>,
  ): Promise<z.output<R>> {
    const { component, rpc } = contract;
    const version = await this.version(domain);
    const parsed = contract.response.safeParse(await this.post(domain, component, rpc, body, version));
    if (!parsed.success) throw new ApiError(federationErrors.invalidBody, `${component}/${rpc} from ${domain}`);
    return parsed.data;
  }

  /**
   * Sends a notification (an RPC answered with an empty object) in the payload the remote's
   * version takes (`bundle` maps versions to the payload from that version on); `unsuitable`
   * when none of them suits the remote's version.
   */
  async notify(
    domain: string,
    component: FederatedComponent,
    rpc: string,
    bundle: PayloadBundle,
  ): Promise<'sent' | 'unsuitable'> {
    const version = await this.version(domain);
    const payload = payloadFor(bundle, version);
    if (payload === undefined) return 'unsuitable';
    await this.post(domain, component, rpc, payload.body, version);
    return 'sent';
  }

  /**
   * Sends the first of `notifications` (as many as fit one call, in order) in one call: the outcome
   * of each, ending at the first that failed; undefined when the remote takes no batch (send them
   * one by one). A call that does not reach the remote throws, as `notify` does.
   */
  async notifyBatch(domain: string, notifications: readonly Notification[]): Promise<BatchedOutcome[] | undefined> {
    if ((unbatched.get(domain) ?? 0) > Date.now()) return undefined;
    const version = await this.version(domain);
    const outcomes: BatchedOutcome[] = [];
    const sent: Array<{ component: FederatedComponent; rpc: string; body: unknown }> = [];
    const sentAt: number[] = [];
    let bytes = 0;
    for (const n of notifications) {
      if (sent.length === MAX_BATCH || (bytes > BATCH_BYTES && sent.length > 0)) break;
      const payload = payloadFor(n.bundle, version);
      outcomes.push(payload === undefined ? 'unsuitable' : 'sent');
      if (payload === undefined) continue;
      bytes += JSON.stringify(payload.body).length;
      sentAt.push(outcomes.length - 1);
      sent.push({ component: n.component, rpc: n.rpc, body: payload.body });
    }
    if (sent.length === 0) return outcomes;
    let answer: z.output<typeof notificationBatchOutcomes>;
    try {
      answer = await this.call(domain, notificationBatchRpc, { notifications: sent });
    } catch (err) {
      const inner = err instanceof ApiError ? innerCode(err) : undefined;
      if (inner === undefined || inner >= 500) throw err;
      // wire-server's galley has no batch RPC: 404
      if (inner === 404) unbatched.set(domain, Date.now() + UNBATCHED_FOR_MS);
      return undefined; // refused whole: each on its own says whose refusal it is
    }
    for (const [k, at] of sentAt.entries()) {
      const o = answer.outcomes[k];
      if (o === undefined || ('code' in o && o.code >= 500)) return [...outcomes.slice(0, at), 'failed'];
      if ('code' in o) outcomes[at] = 'refused';
    }
    return outcomes;
  }

  /** Whether the remote answers now (its brig `api-version`, through both federators). */
  async answers(domain: string): Promise<boolean> {
    try {
      await this.post(domain, 'brig', 'api-version', {}, undefined);
      return true;
    } catch (err) {
      if (err instanceof ApiError) return false;
      throw err;
    }
  }

  /** The highest version both backends speak (asked of the remote's brig `api-version`). */
  private async version(domain: string): Promise<number> {
    const known = negotiated.get(domain);
    if (known !== undefined && Date.now() < known.until) return known.version;
    const info = (await this.post(domain, 'brig', 'api-version', {}, undefined)) as { versions?: unknown };
    const theirs = Array.isArray(info?.versions) ? info.versions.filter((v) => Number.isInteger(v)) : undefined;
    if (theirs === undefined) throw new ApiError(federationErrors.versionError, 'invalid version information');
    const common = FEDERATION_API_VERSIONS.filter((v) => theirs.includes(v));
    const version = common.at(-1);
    if (version === undefined) {
      const tooOld = Math.max(...theirs) < FEDERATION_API_VERSIONS[0];
      throw new ApiError(
        federationErrors.versionError,
        `Version negotiation failed: the remote backend is too ${tooOld ? 'old' : 'new'}`,
      );
    }
    negotiated.set(domain, { version, until: Date.now() + NEGOTIATED_FOR_MS });
    return version;
  }

  /** Calls an RPC that answers with bytes (cargohold's stream-asset): the answer as it comes. */
  async stream(domain: string, component: FederatedComponent, rpc: string, body: unknown): Promise<Response> {
    return this.send(domain, component, rpc, body, await this.version(domain));
  }

  private async post(
    domain: string,
    component: FederatedComponent,
    rpc: string,
    body: unknown,
    version: number | undefined,
  ): Promise<unknown> {
    const text = await (await this.send(domain, component, rpc, body, version)).text();
    try {
      return JSON.parse(text);
    } catch {
      throw new ApiError(federationErrors.invalidBody, `${component}/${rpc} from ${domain}: not JSON`);
    }
  }

  /** One call through the federator; its refusals (and the remote's, which it wrapped) are thrown. */
  private async send(
    domain: string,
    component: FederatedComponent,
    rpc: string,
    body: unknown,
    version: number | undefined,
  ): Promise<Response> {
    if (!this.config.brig.enableFederation) throw new ApiError(federationErrors.federationNotEnabled);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (version !== undefined) headers['x-svc-api-version'] = `v${version}`;
    let res: Response;
    try {
      res = await federatorPost(this.config, `/rpc/${domain}/${component}/${rpc}`, headers, JSON.stringify(body));
    } catch (err) {
      throw new ApiError(
        federationErrors.federationNotAvailable,
        `Local federator not available: ${(err as Error).message}`,
      );
    }
    if (!res.ok) throw refusal(res.status, await res.text());
    return res;
  }
}

/**
 * What a call to another backend gives, or undefined when it could not answer (the routes that
 * list many users report those as failed instead of failing whole).
 */
export async function unlessUnreachable<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}
