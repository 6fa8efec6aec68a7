import { describe, expect, it } from 'vitest';
import { AppendLanes } from '../../../src/shared/notifications/append-lanes.js';
import type { Delivery } from '../../../src/shared/notifications/types.js';

/** One shard whose append calls are recorded and finished by the test. */
function oneShard() {
  const calls: Array<{ users: string[]; finish: (err?: Error) => void }> = [];
  const lanes = new AppendLanes(
    (_shard, batch) =>
      new Promise<void>((resolve, reject) =>
        calls.push({
          users: batch.flatMap((b) => b.to.map((e) => e[0])),
          finish: (err) => (err ? reject(err) : resolve()),
        }),
      ),
  );
  return { shards: { append: (batch: Delivery[], ttl: number) => lanes.enqueue('shard-0', batch, ttl) }, calls };
}

const to = (user: string): Delivery[] => [{ head: '[]', tail: '', to: [[user, null, '']] }];

describe('AppendLanes', () => {
  it('calls an idle shard at once, and sends what queued behind a call as one call, in order', async () => {
    const { shards, calls } = oneShard();
    const a = shards.append(to('a'), 60);
    expect(calls.map((c) => c.users)).toEqual([['a']]);
    const b = shards.append(to('b'), 60);
    const c = shards.append(to('c'), 60);
    expect(calls).toHaveLength(1);

    calls[0]!.finish();
    await a;
    expect(calls.map((x) => x.users)).toEqual([['a'], ['b', 'c']]);
    calls[1]!.finish();
    await Promise.all([b, c]);

    const d = shards.append(to('d'), 60);
    expect(calls.map((x) => x.users)).toEqual([['a'], ['b', 'c'], ['d']]);
    calls[2]!.finish();
    await d;
  });

  it('fails every append of a failed call, and goes on with the next', async () => {
    const { shards, calls } = oneShard();
    const a = shards.append(to('a'), 60);
    const b = shards.append(to('b'), 60);
    const c = shards.append(to('c'), 60);
    calls[0]!.finish();
    await a;
    calls[1]!.finish(new Error('shard gone'));
    await expect(b).rejects.toThrow('shard gone');
    await expect(c).rejects.toThrow('shard gone');
    const d = shards.append(to('d'), 60);
    expect(calls.map((x) => x.users)).toEqual([['a'], ['b', 'c'], ['d']]);
    calls[2]!.finish();
    await d;
  });
});
