import { expect } from 'vitest';
import { call, type Reply } from './http.js';
import { uniqueEmail } from './users.js';
import { getProviderActivate, postProviderLogin, postProviderRegister } from './endpoints/brig.js';

/** A request with a provider's cookie. */
export function asProvider(pub: string, cookie: string, method: string, path: string, body?: unknown): Promise<Reply> {
  return call(pub, path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A registered provider, its address not yet activated: its id, generated password and address. */
export async function registeredProvider(pub: string) {
  const email = uniqueEmail('provider');
  const registered = await postProviderRegister(pub, {
    name: 'Acme Bots',
    email,
    url: 'https://bots.example.com',
    description: 'Bots of all kinds',
  });
  expect(registered.status, registered.text).toBe(201);
  return { id: registered.body.id as string, password: registered.body.password as string, email };
}

export type ActiveProvider = Awaited<ReturnType<typeof activeProvider>>;

/** A provider whose address is activated (with the code the internal API reveals), logged in. */
export async function activeProvider(pub: string, internalUrl: string) {
  const p = await registeredProvider(pub);
  const { key, code } = (await call(internalUrl, `/i/provider/activation-code?email=${encodeURIComponent(p.email)}`))
    .body;
  expect((await getProviderActivate(pub, { key, code })).status).toBe(200);
  const login = await postProviderLogin(pub, { email: p.email, password: p.password });
  expect(login.status, login.text).toBe(200);
  return { ...p, cookie: /zprovider=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0] };
}
