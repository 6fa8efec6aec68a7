/** Whether the text is an absolute URL (what `new URL` takes without a base). */
export function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
