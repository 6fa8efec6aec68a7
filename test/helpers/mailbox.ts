import { expect } from 'vitest';
import { call } from './http.js';

/** Every mail to an address, newest first. */
export async function mailsTo(base: string, email: string): Promise<Array<{ subject: string; text: string }>> {
  const r = await call(base, `/mailbox?to=${encodeURIComponent(email)}`, {
    headers: { authorization: `Basic ${btoa('mail:local-mailbox')}` },
  });
  expect(r.status).toBe(200);
  return r.body.messages;
}

/** The newest mail to an address, read through the basic-auth mailbox of the local outbox. */
export async function lastMail(base: string, email: string): Promise<{ subject: string; text: string }> {
  const messages = await mailsTo(base, email);
  expect(messages.length).toBeGreaterThan(0);
  return messages[0]!;
}

/** The team invitation code in the newest mail to an address. */
export async function invitationCode(base: string, email: string): Promise<string> {
  const mail = await lastMail(base, email);
  const m = /team-code=([A-Za-z0-9_%-]+)/.exec(mail.text);
  expect(m, mail.text).not.toBeNull();
  return decodeURIComponent(m![1]!);
}
