import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs the `chromium` package). */
const CHROMIUM = '/usr/bin/chromium';

export interface ChromiumOptions {
  /** Host names the browser reaches on port 443, each mapped to a loopback port here. */
  hosts: Record<string, number>;
  /** The test certificate's key hash: Chromium trusts that certificate, and only it. */
  spkiHash: string;
}

/**
 * Launches headless Chromium, in a fresh profile (Playwright's own temporary user-data-dir; each
 * `newContext()` is a further profile with its own cookie jar), resolving the test's host names
 * to loopback ports (`--host-resolver-rules`), so that the pages keep their real origins
 * (`https://webapp.example.com`, no port) while every server runs here.
 */
export function launchChromium(options: ChromiumOptions): Promise<Browser> {
  const rules = Object.entries(options.hosts)
    .map(([host, port]) => `MAP ${host}:443 127.0.0.1:${port}`)
    .join(', ');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false, // as root: --no-sandbox
    args: [
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=${rules}`,
      `--ignore-certificate-errors-spki-list=${options.spkiHash}`,
    ],
  });
}
