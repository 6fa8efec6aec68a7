function isViolation(err: unknown, constraint: string, column: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes(`${constraint} constraint failed: ${column}`)) return true;
  }
  return false;
}

/** Whether a D1 failure is a UNIQUE violation on this `table.column` (a lost race for a unique key). */
export const isUniqueViolation = (err: unknown, column: string) => isViolation(err, 'UNIQUE', column);
