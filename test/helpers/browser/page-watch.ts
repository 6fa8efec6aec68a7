import { EventEmitter } from 'node:events';
import type { Page } from 'playwright-core';

/** A URL with its access token hidden. */
const redact = (url: string) => url.replace(/(access_token=)[^&]+/, '$1…');

/** A websocket the page opened, as the browser saw it on the wire. */
export interface SocketRecord {
  url: string;
  openedAt: number;
  closedAt?: number;
  /** Text frames the page sent, in order (`ping`, or a JSON message's type). */
  sent: string[];
  /** `pong` frames received, and whether each came as a binary or a text frame. */
  pongs: Array<{ at: number; binary: boolean }>;
  /** Other frames received. */
  received: number;
}

export interface BackendAnswer {
  method: string;
  url: string;
  status: number;
  body?: string;
}

/** What a page showed of its traffic and console while the test drove it. */
export interface PageWatch {
  name: string;
  console: Array<{ type: string; text: string; url: string }>;
  pageErrors: string[];
  failedRequests: Array<{ method: string; url: string; failure: string }>;
  /** Responses of 400 and above. */
  errorAnswers: BackendAnswer[];
  sockets: SocketRecord[];
  /** Emits `change` on every websocket frame or close. */
  changes: EventEmitter;
}

/** Records a page's console, failed requests, error answers and websocket frames from now on. */
export function watchPage(page: Page, name: string): PageWatch {
  const w: PageWatch = {
    name,
    console: [],
    pageErrors: [],
    failedRequests: [],
    errorAnswers: [],
    sockets: [],
    changes: new EventEmitter(),
  };
  const changed = () => w.changes.emit('change');
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning')
      w.console.push({ type: m.type(), text: m.text(), url: redact(m.location().url) });
  });
  page.on('pageerror', (e) => w.pageErrors.push(String(e.stack ?? e)));
  page.on('requestfailed', (r) =>
    w.failedRequests.push({ method: r.method(), url: redact(r.url()), failure: r.failure()?.errorText ?? '' }),
  );
  page.on('response', async (r) => {
    if (r.status() < 400) return;
    const answer: BackendAnswer = { method: r.request().method(), url: redact(r.url()), status: r.status() };
    w.errorAnswers.push(answer);
    answer.body = await r.text().then(
      (t) => t.slice(0, 300),
      () => undefined,
    );
  });
  page.on('websocket', (ws) => {
    const s: SocketRecord = { url: redact(ws.url()), openedAt: Date.now(), sent: [], pongs: [], received: 0 };
    w.sockets.push(s);
    ws.on('framesent', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString('utf8');
      let kind = text;
      try {
        kind = (JSON.parse(text) as { type?: string }).type ?? text;
      } catch {
        // `ping`
      }
      s.sent.push(kind);
      changed();
    });
    ws.on('framereceived', ({ payload }) => {
      const binary = typeof payload !== 'string';
      if ((binary ? payload.toString('utf8') : payload) === 'pong') s.pongs.push({ at: Date.now(), binary });
      else s.received++;
      changed();
    });
    ws.on('close', () => {
      s.closedAt = Date.now();
      changed();
    });
  });
  return w;
}

/** Resolves when `check` holds after a websocket change, or once `timeoutMs` passed (whether it holds or not). */
export function socketsSettle(w: PageWatch, check: () => boolean, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      w.changes.off('change', attempt);
      resolve();
    };
    const attempt = () => {
      if (check()) done();
    };
    const timer = setTimeout(done, timeoutMs);
    w.changes.on('change', attempt);
    attempt();
  });
}

/** Whether a console line is Chromium's note of an answer the test expected. */
const isExpectedAnswerNote = (line: { text: string; url: string }, expected: BackendAnswer[]) => {
  const status = /the server responded with a status of (\d+)/.exec(line.text)?.[1];
  return status !== undefined && expected.some((a) => String(a.status) === status && a.url === line.url);
};

/**
 * What went wrong in a page because of a backend answer, or anything else: console errors (the
 * SDK's own, CORS and CSP refusals, Chromium's notes of failed loads), uncaught page errors,
 * requests that failed, and error answers, except those `isExpected` accepts (and Chromium's
 * console note of them).
 */
export function problemsOf(w: PageWatch, isExpected: (a: BackendAnswer) => boolean): string[] {
  const expected = w.errorAnswers.filter(isExpected);
  return [
    ...w.console
      .filter((l) => l.type === 'error' && !isExpectedAnswerNote(l, expected))
      .map((l) => `console error: ${l.text} (${l.url})`),
    ...w.pageErrors.map((e) => `page error: ${e}`),
    ...w.failedRequests.map((r) => `request failed: ${r.method} ${r.url}: ${r.failure}`),
    ...w.errorAnswers
      .filter((a) => !expected.includes(a))
      .map((a) => `answer ${a.status} to ${a.method} ${a.url}: ${a.body ?? ''}`),
  ].map((p) => `${w.name}: ${p}`);
}
