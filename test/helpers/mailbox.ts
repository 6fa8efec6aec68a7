import { expect } from 'vitest';
import { call } from './http.js';

/** The newest mail to an address, read through the basic-auth mailbox of the local outbox. */
export async function lastMail(base: string, email: string): Promise<{ subject: string; text: string }> {
  const r = await call(base, `/mailbox?to=${encodeURIComponent(email)}`, {
    headers: { authorization: `Basic ${btoa('mail:local-mailbox')}` },
  });
  expect(r.status).toBe(200);
  expect(r.body.messages.length).toBeGreaterThan(0);
  return r.body.messages[0];
}
