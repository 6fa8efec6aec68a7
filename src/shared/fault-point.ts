/**
 * Crash tests stop the backend at a named point: with FAULT_POINT set to that name (only the
 * tests' backends set it), the code there logs `fault point reached: <name>` and waits forever,
 * so that the test can kill the process exactly there. Without it, nothing happens.
 */
export async function faultPoint(env: { FAULT_POINT?: string }, name: string): Promise<void> {
  if (env.FAULT_POINT !== name) return;
  console.log(`fault point reached: ${name}`);
  await new Promise(() => {});
}
