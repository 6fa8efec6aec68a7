import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { sendMail } from '../email/mailer.js';
import { registrationJson } from './registration-json.js';
import type { RegistrationRow } from './registration-store.js';

const pretty = (row: RegistrationRow | undefined) =>
  row === undefined ? 'null' : JSON.stringify(registrationJson(row, 'object'), null, 2);

/**
 * Every operator change of a registration is logged, and mailed to `setAuditLogEmailRecipient`
 * when one is configured: what was called, the value before and after.
 */
export async function auditChange(
  c: Context<AppEnv>,
  a: { call: string; subject: string; before: RegistrationRow | undefined; after: RegistrationRow | undefined },
): Promise<void> {
  console.log(
    JSON.stringify({
      level: 'info',
      msg: 'Domain registration audit log',
      url: a.call,
      old_value: a.before === undefined ? null : registrationJson(a.before, 'object'),
      new_value: a.after === undefined ? null : registrationJson(a.after, 'object'),
    }),
  );
  const config = c.get('config');
  const to = config.brig.optSettings.setAuditLogEmailRecipient;
  if (to === undefined) return;
  await sendMail(
    c.env,
    config,
    { email: to },
    {
      kind: 'audit',
      subject: a.subject,
      lines: [`${a.call} called;`, 'Old value:', pretty(a.before), 'New value:', pretty(a.after)],
    },
  );
}
