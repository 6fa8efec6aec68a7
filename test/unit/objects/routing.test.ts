import { describe, expect, it } from 'vitest';
import { route } from '../../../src/objects/notifications/routing.js';

describe('route (gundeck splitting a push between the queues and the stream)', () => {
  it('stores everything while none of the clients it is for consumes a queue, users without clients too', () => {
    expect(route(null, [], [])).toEqual({ listed: null, temporary: false });
    expect(route(null, [], ['l1'])).toEqual({ listed: null, temporary: false });
    expect(route(['l1'], ['q1'], ['l1'])).toEqual({ listed: ['l1'], temporary: false });
    // A client that is not (any more) the user's counts for neither.
    expect(route(['gone'], ['q1'], ['l1'])).toEqual({ listed: ['gone'], temporary: false });
  });

  it('stores nothing for what only queue-consuming clients get; temporary consumers get what is for all', () => {
    expect(route(null, ['q1'], [])).toEqual({ listed: undefined, temporary: true });
    expect(route(['q1'], ['q1', 'q2'], ['l1'])).toEqual({ listed: undefined, temporary: false });
  });

  it('stores for the legacy clients only, when some of the clients it is for consume queues and some do not', () => {
    expect(route(null, ['q1'], ['l1', 'l2'])).toEqual({ listed: ['l1', 'l2'], temporary: true });
    expect(route(['q1', 'l2'], ['q1'], ['l1', 'l2'])).toEqual({ listed: ['l2'], temporary: false });
  });

  it('stores as always for a user whose legacy clients are not known', () => {
    expect(route(null, ['q1'], undefined)).toEqual({ listed: null, temporary: true });
    expect(route(['q1'], ['q1'], undefined)).toEqual({ listed: ['q1'], temporary: false });
  });
});
