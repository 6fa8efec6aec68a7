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

/** The team invitation code in the newest mail to an address. */
export async function invitationCode(base: string, email: string): Promise<string> {
  const mail = await lastMail(base, email);
  const m = /team-code=([A-Za-z0-9_%-]+)/.exec(mail.text);
  expect(m, mail.text).not.toBeNull();
  return decodeURIComponent(m![1]!);
}
