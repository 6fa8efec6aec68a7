import { expect } from 'vitest';

/** A parsed response: status, headers and the JSON (or text) body. */
export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(base: string, path: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(base + path, init);
  const text = await res.text();
  let body: unknown = text;
  if (text !== '' && /^application\/([\w.-]+\+)?json/.test(res.headers.get('content-type') ?? ''))
    body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

export function postJson(base: string, path: string, json: unknown, method = 'POST'): Promise<Reply> {
  return call(base, path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
}

/** Matches Wire's error body with this status and label. */
export function wireError(status: number, label: string) {
  return { code: status, label, message: expect.any(String) };
}
