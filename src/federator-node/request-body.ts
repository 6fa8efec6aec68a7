/** Reads a request body whole (federation bodies are JSON). */
export async function readBody(req: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(parts);
}
