import { askEach } from '../../../shared/chunked.js';
import type { ConnectionRecord, Relation } from '../../../shared/accounts/material.js';
import { defineEffect } from '../../effects/effect.js';
import { accountObject } from '../clients/account-object.js';

/** One side of a connection: the user's own record of it (the other side is the other user's). */
export type ConnectionRow = ConnectionRecord;

/**
 * The users' connections, each side in its user's Account object (docs/architecture.md, "Where
 * state lives"). Reads ask the objects; writes are effects of the change that makes them
 * (putSidesEffect, forgetSidesEffect), so they come with its events, after a crash too.
 */
export const connectionBook = {
  get(env: Env, from: string, domain: string, to: string): Promise<ConnectionRow | undefined> {
    return accountObject(env, from).connection(from, domain, to);
  },
  /** The user's connections with one of these statuses (all when none is named), by (domain, user). */
  withStatus(env: Env, user: string, statuses?: readonly Relation[]): Promise<ConnectionRow[]> {
    return accountObject(env, user).connectionList(user, statuses);
  },
  /** A page of the user's connections ordered by (domain, user), after the given position. */
  page(env: Env, user: string, size: number, after?: { domain: string; user: string }): Promise<ConnectionRow[]> {
    return accountObject(env, user).connectionPage(user, size, after);
  },
  /** Connections counting against `setUserMaxConnections`: accepted and sent. */
  countActive(env: Env, user: string): Promise<number> {
    return accountObject(env, user).connectionCount(user, ['accepted', 'sent']);
  },
  /** Of these users of `domain`, those `user`'s own connection to is accepted (a lookup each, not every connection). */
  async acceptedTo(env: Env, user: string, domain: string, others: readonly string[]): Promise<Set<string>> {
    const accepted = await accountObject(env, user).connectionsAmong(user, domain, [...new Set(others)], ['accepted']);
    return new Set(accepted.map((r) => r.toUser));
  },
  /** Of these local users, those whose own connection to `domain/user` is accepted. */
  async acceptingOf(env: Env, users: readonly string[], domain: string, user: string): Promise<Set<string>> {
    const sides = await askEach(users, (u) => this.get(env, u, domain, user));
    return new Set(sides.filter((r) => r?.status === 'accepted').map((r) => r!.fromUser));
  },
  /** Of these local users, those connected to `user` in both directions (both sides accepted). */
  async connectedWith(env: Env, user: string, domain: string, others: readonly string[]): Promise<Set<string>> {
    const mine = await this.acceptedTo(env, user, domain, others);
    const back = await this.acceptingOf(env, [...mine], domain, user);
    return new Set([...mine].filter((u) => back.has(u)));
  },
};

/** Records sides of connections, each in its user's Account object (a newer record stays), 50 at a time. */
export const putSidesEffect = defineEffect('put-connection-sides', async ({ env }, rows: readonly ConnectionRow[]) => {
  await askEach(rows, (row) => accountObject(env, row.fromUser).putConnection(row));
});

/**
 * Forgets the sides these users keep of their connection to `domain/to` (a deleted user), unless
 * changed after `at` (ms): one effect for all of them, their objects asked 50 at a time.
 */
export const forgetSidesEffect = defineEffect(
  'forget-connection-sides',
  async ({ env }, o: { users: readonly string[]; domain: string; to: string; at: number }) => {
    await askEach(o.users, (user) => accountObject(env, user).forgetConnection(user, o.domain, o.to, o.at));
  },
);
