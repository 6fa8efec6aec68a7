/** Whether a D1 failure is a UNIQUE violation on this `table.column` (a lost race for a unique key). */
export function isUniqueViolation(err: unknown, column: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes(`UNIQUE constraint failed: ${column}`)) return true;
  }
  return false;
}
