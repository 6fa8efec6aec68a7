import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../../src/edge/api/errors/api-error.js';
import { MAX_USERS_ADDED_PER_COMMIT, requireFewUsers } from '../../../../../src/edge/galley/mls/added-users-limit.js';

const clientsOf = (users: number, clientsEach = 1) =>
  Array.from({ length: users }, (_, u) =>
    Array.from({ length: clientsEach }, (_, c) => ({ user: `user-${u}`, domain: 'example.com', client: `${c}` })),
  ).flat();

describe('the users one commit may add', () => {
  it('takes clients of up to 2,000 users, however many clients each has', () => {
    expect(MAX_USERS_ADDED_PER_COMMIT).toBe(2000);
    expect(() => requireFewUsers(clientsOf(2000, 3))).not.toThrow();
  });

  it('refuses clients of 2,001 users with 413 client-error', () => {
    let thrown: unknown;
    try {
      requireFewUsers(clientsOf(2001));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).body()).toMatchObject({ code: 413, label: 'client-error' });
  });

  it('counts a user of another domain with the same id as another user', () => {
    const twice = clientsOf(1000).flatMap((c) => [c, { ...c, domain: 'other.example.com' }]);
    expect(() => requireFewUsers(twice)).not.toThrow();
    expect(() => requireFewUsers([...twice, { user: 'one-more', domain: 'example.com', client: '0' }])).toThrow(
      ApiError,
    );
  });
});
