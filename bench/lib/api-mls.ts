// An MLS conversation made as Wire's clients make one: users through the API (see api-seed.ts),
// each client's signature key registered with `PUT /clients/{id}`, the conversation created with
// `protocol: mls`; the group itself is then made by its creator's commits.
import { type ApiUser, apiUser, call, connectUsers, inParallel, type Listening } from './api-seed.js';
import { type BenchMlsClient, mlsClient, SCHEME } from './mls-group.js';
import type { SeededUser } from './seed.js';
import { serverCpuReader } from './server-cpu.js';

/** A stage of a setup: its wall time and workerd's CPU time meanwhile (ms; undefined where unreadable). */
export interface Stage {
  stage: string;
  ms: number;
  cpuMs: number | undefined;
}

/** Runs `run` as a stage, added to `stages`. */
export async function stage<T>(stages: Stage[], name: string, run: () => Promise<T>): Promise<T> {
  const cpu = serverCpuReader();
  const cpu0 = cpu?.();
  const start = performance.now();
  const out = await run();
  stages.push({
    stage: name,
    ms: performance.now() - start,
    cpuMs: cpu0 === undefined ? undefined : (cpu!() - cpu0) / 1e6,
  });
  return out;
}

export interface MlsConversation {
  conv: string;
  groupId: Uint8Array;
  users: SeededUser[];
  /**
   * One MLS client per user (the API client `users[i].clients[0]`); the first, the creator's, keeps
   * its private keys, and so do the next `keepPrivate`.
   */
  mls: BenchMlsClient[];
  /** The creator's access token, bound to its client (MLS routes need the client). */
  creatorToken: string;
  /** How long each stage took, in order. */
  stages: Stage[];
}

/**
 * `members` users, the first connected to each other (who accepts), their MLS keys registered, and
 * the first's MLS conversation; `width` requests of a stage at a time.
 */
export async function apiMlsConversation(
  backend: Listening,
  o: { members: number; domain: string; keepPrivate: number; width: number },
): Promise<MlsConversation> {
  const stages: Stage[] = [];
  const users = await stage(stages, 'users', () => inParallel(o.members, o.width, () => apiUser(backend)));
  const [creator, ...others] = users as [ApiUser, ...ApiUser[]];
  await stage(stages, 'connections', () =>
    inParallel(others.length, o.width, (i) =>
      connectUsers({ user: creator, backend }, { user: others[i]!, backend, domain: o.domain }, o.domain),
    ),
  );
  const mls: BenchMlsClient[] = await stage(stages, 'MLS keys', () =>
    inParallel(users.length, o.width, async (i) => {
      const u = users[i]!;
      const m = await mlsClient({ user: u.id, client: u.clients[0]!, domain: o.domain }, i <= o.keepPrivate);
      await call(backend.publicUrl, `/v8/clients/${u.clients[0]}`, {
        method: 'PUT',
        token: u.token,
        body: { mls_public_keys: { [SCHEME]: m.publicKey } },
      });
      return m;
    }),
  );
  const created = await stage(stages, 'conversation', () =>
    call(backend.publicUrl, '/v8/conversations', {
      method: 'POST',
      token: creator.token,
      body: { protocol: 'mls', qualified_users: [] },
    }),
  );
  return {
    conv: created.qualified_id.id,
    groupId: new Uint8Array(Buffer.from(created.group_id, 'base64')),
    users,
    mls,
    creatorToken: creator.token,
    stages,
  };
}
