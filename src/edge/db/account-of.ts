/**
 * A user's Account object (src/objects/Account.ts), the one place its id is made: every call names
 * the user again, for the object's first call to find the rows earlier versions left in D1.
 */
export function accountOf(env: Pick<Env, 'ACCOUNTS'>, user: string) {
  return env.ACCOUNTS.get(env.ACCOUNTS.idFromName(user));
}
