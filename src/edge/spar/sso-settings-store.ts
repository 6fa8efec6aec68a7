import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sparSettings } from '../../shared/db/schema-spar.js';

const KEY = 'default_sso_code';

/** spar's settings table. */
export const settingsStore = {
  async defaultSsoCode(db: Db): Promise<string | null> {
    const [row] = await db.select().from(sparSettings).where(eq(sparSettings.key, KEY));
    return row?.value ?? null;
  },
  setDefaultSsoCode: (db: Db, idp: string) =>
    db
      .insert(sparSettings)
      .values({ key: KEY, value: idp })
      .onConflictDoUpdate({ target: sparSettings.key, set: { value: idp } }),
  /** Clears the default when it is this IdP (or any, without one). */
  clearDefaultSsoCode: (db: Db, idp?: string) =>
    idp === undefined
      ? db.delete(sparSettings).where(eq(sparSettings.key, KEY))
      : db.delete(sparSettings).where(eq(sparSettings.value, idp)),
};
