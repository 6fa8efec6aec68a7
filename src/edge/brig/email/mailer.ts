import { WorkerMailer } from 'worker-mailer';
import type { Config } from '../../../shared/config/index.js';
import { database } from '../../db/client.js';
import { outboxStore } from './outbox-store.js';
import { renderMail, type MailKind } from './templates/index.js';

export interface Recipient {
  email: string;
  /** The profile's locale; absent for addresses without an account. */
  locale?: string | undefined;
}

/**
 * Renders and delivers one mail through the configured sender: the outbox (local development,
 * tests), an HTTP mail API that takes `{from, to, subject, text, html}` as JSON, or an SMTP
 * relay (worker-mailer speaks SMTP over the Workers TCP socket API).
 */
export async function sendMail(env: Env, config: Config, to: Recipient, mail: MailKind): Promise<void> {
  const { emailSMS, optSettings } = config.brig;
  const rendered = renderMail(mail, to.locale, {
    templateLocale: optSettings.setDefaultTemplateLocale,
    userLocale: optSettings.setDefaultUserLocale,
  });
  const message = { from: emailSMS.general.emailSender, to: to.email, ...rendered };
  const delivery = emailSMS.delivery;
  if (delivery.type === 'outbox') {
    await outboxStore.add(database(env.DB), message);
    return;
  }
  if (delivery.type === 'smtp') {
    await WorkerMailer.send(
      {
        host: delivery.host,
        port: delivery.port,
        secure: delivery.secure,
        startTls: delivery.startTls,
        ...(delivery.credentials === undefined
          ? {}
          : { credentials: delivery.credentials, authType: ['plain', 'login'] }),
      },
      message,
    );
    return;
  }
  const res = await fetch(delivery.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(delivery.authorization === undefined ? {} : { authorization: delivery.authorization }),
    },
    body: JSON.stringify(message),
  });
  if (!res.ok) throw new Error(`mail API answered ${res.status} for a ${mail.kind} mail`);
}
