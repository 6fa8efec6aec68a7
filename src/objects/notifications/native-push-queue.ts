import type { NativePushJob } from '../../shared/notifications/native-push.js';

type PushQueue = Queue<NativePushJob[]>;

/** A native push queue and its binding's name (the metrics' `queue` label). */
export interface NativePushQueue {
  binding: string;
  queue: PushQueue;
}

/**
 * The deployment's native push queues, `NATIVE_PUSH`, `NATIVE_PUSH_1`, … (wrangler.objects.toml):
 * one takes about 5,000 messages/s, so a deployment past that declares more (docs/architecture.md,
 * "The capacity model"). A notification object sends its appends' pushes to each in turn, starting
 * from one its id picks, so every queue takes its share of every object's load.
 */
export class NativePushQueues {
  private readonly queues: NativePushQueue[];
  private turn: number;

  constructor(env: Env, object: DurableObjectId) {
    this.queues = Object.entries(env)
      .filter(([binding]) => /^NATIVE_PUSH(_\d+)?$/.test(binding))
      .sort(([a], [b]) => order(a) - order(b))
      .map(([binding, queue]) => ({ binding, queue: queue as PushQueue }));
    this.turn = Number.parseInt(object.toString().slice(-8), 16) || 0;
  }

  /** The queue for the next append's pushes; none when the deployment has no native push. */
  next(): NativePushQueue | undefined {
    if (this.queues.length === 0) return undefined;
    return this.queues[this.turn++ % this.queues.length];
  }
}

const order = (binding: string) => Number(binding.slice('NATIVE_PUSH_'.length) || 0);
