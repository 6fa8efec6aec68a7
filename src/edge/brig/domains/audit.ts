import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { database } from '../../db/client.js';
import { sendMail } from '../email/mailer.js';
import { registrationJson } from './registration-json.js';
import { checkUpdate } from './registration-rules.js';
import { registrationStore, type RegistrationRow } from './registration-store.js';
import { log } from '../../../shared/log.js';

interface Change {
  call: string;
  subject: string;
  before: RegistrationRow | undefined;
  /** undefined: the registration goes. */
  after: RegistrationRow | undefined;
}

const pretty = (row: RegistrationRow | undefined) =>
  row === undefined ? 'null' : JSON.stringify(registrationJson(row, 'object'), null, 2);

/**
 * Every operator change of a registration is logged, and mailed to `setAuditLogEmailRecipient`
 * when one is configured: what was called, the value before and after.
 */
async function auditChange(c: Context<AppEnv>, a: Change): Promise<void> {
  log('info', 'Domain registration audit log', {
    url: a.call,
    old_value: a.before === undefined ? null : registrationJson(a.before, 'object'),
    new_value: a.after === undefined ? null : registrationJson(a.after, 'object'),
  });
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

/** Stores a change of a registration (or its removal) and audits it. */
export async function auditedWrite(c: Context<AppEnv>, change: Change & { domain: string }): Promise<void> {
  const db = database(c.env.DB);
  if (change.after === undefined) await registrationStore.delete(db, change.domain);
  else await registrationStore.put(db, change.after);
  await auditChange(c, change);
}

/**
 * A new redirect or invite rule, whoever sets it (operators, the domain's owner, its team): checked,
 * stored and audited as the operators' update.
 */
export async function saveUpdate(c: Context<AppEnv>, before: RegistrationRow | undefined, after: RegistrationRow) {
  checkUpdate(after);
  await auditedWrite(c, {
    domain: after.domain,
    call: `PUT /i/domain-registration/${after.domain}`,
    subject: 'Domain registration updated',
    before,
    after,
  });
}
