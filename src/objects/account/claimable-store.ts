/**
 * The Account object's copy of the directory's word that its user's key packages may be claimed
 * (shared/accounts/claim-standing-store.ts), so claims ask D1 nothing. Only the yes is kept: a
 * change that could make it a no (suspension, deletion, legal hold) forgets it, and the next
 * claim asks D1 again; a change back to yes needs no word, as nothing stale says no.
 */
export class ClaimableStore {
  /**
   * Counts forgets in this instance's life: a claim that asked D1 before a forget must not keep
   * the answer after it (the object takes calls while it waits for D1).
   */
  private forgets = 0;

  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS claimable (at INTEGER NOT NULL)');
  }

  known(): boolean {
    return this.sql.exec('SELECT 1 FROM claimable').toArray().length > 0;
  }

  /** What a later `keep` must present: answers asked before another forget are not kept. */
  generation(): number {
    return this.forgets;
  }

  keep(generation: number, at: number): void {
    if (generation !== this.forgets || this.known()) return;
    this.sql.exec('INSERT INTO claimable (at) VALUES (?)', at);
  }

  forget(): void {
    this.forgets += 1;
    this.sql.exec('DELETE FROM claimable');
  }
}
