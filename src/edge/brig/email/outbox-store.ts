import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../../shared/db/schema.js';

export interface StoredMail {
  id: number;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  date: string;
}

/** Mail kept by the outbox sender (D1 table mail_outbox). */
export const outboxStore = {
  async add(db: Db, m: Omit<StoredMail, 'id' | 'date'>): Promise<void> {
    await db.insert(mailOutbox).values({
      recipient: m.to.toLowerCase(),
      sender: m.from,
      subject: m.subject,
      textBody: m.text,
      htmlBody: m.html,
      createdAt: Date.now(),
    });
  },
  /** The newest mails to an address first, optionally only those after a known id. */
  async list(db: Db, to: string, after = 0, limit = 50): Promise<StoredMail[]> {
    const rows = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, to.toLowerCase()), gt(mailOutbox.id, after)))
      .orderBy(desc(mailOutbox.id))
      .limit(limit);
    return rows.map((r) => ({
      id: r.id,
      to: r.recipient,
      from: r.sender,
      subject: r.subject,
      text: r.textBody,
      html: r.htmlBody,
      date: new Date(r.createdAt).toISOString(),
    }));
  },
};
