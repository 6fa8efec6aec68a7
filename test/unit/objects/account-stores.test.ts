import { describe, expect, it } from 'vitest';
import { workerdSuite } from '../../helpers/workerd.js';

// The scenarios run in workerd, on a Durable Object's SQLite (test/workerd/account-stores.scenarios.ts).
const run = workerdSuite('account-stores');
const c = (id: string, domain = 'example.com') => ({ domain, id });

describe("an Account object's stores", () => {
  it("keep the newer word on the user's membership of a conversation when an older one comes late", async () => {
    expect(await run('conversation-list-late-writes')).toEqual({
      all: [c('a'), c('d'), c('f'), c('e', 'remote.example')],
      afterA: [c('d'), c('f')],
      inDomain: ['d', 'f'],
    });
  });

  it('keep the newer side of a connection when an older write or forget comes late', async () => {
    expect(await run('connection-late-writes')).toEqual({
      afterLatePut: 'accepted',
      afterOldForget: 'accepted',
      afterForget: null,
    });
  });

  it('keep the newer property write, delete or clearing when an older write comes late', async () => {
    expect(await run('property-late-writes')).toEqual({ all: [{ key: 'd', value: '"after"' }], besidesD: 0 });
  });

  it('forget that a user may be claimed over an answer asked before the forget', async () => {
    expect(await run('claimable-forget-wins')).toEqual({ afterStale: false, afterFresh: true });
  });

  it('move again an object an older version moved', async () => {
    expect(await run('moved-by-an-older-version')).toEqual({ before: false, after: true });
  });
});
