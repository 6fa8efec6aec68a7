import { APIClient } from '@wireapp/api-client';
import type { Cookie } from '@wireapp/api-client/lib/auth/Cookie.js';
import { CookieStore } from '@wireapp/api-client/lib/auth/CookieStore.js';

/**
 * One user driven by the official client library. The library keeps the zuid cookie in a
 * process-wide store, so each user's cookie is put back before calls that use it.
 */
export class Account {
  readonly api: APIClient;
  cookie: Cookie | undefined;

  constructor(publicUrl: string) {
    this.api = new APIClient({ urls: { name: 'local', rest: publicUrl, ws: publicUrl.replace(/^http/, 'ws') } });
  }

  async as<T>(fn: () => Promise<T>): Promise<T> {
    if (this.cookie !== undefined) CookieStore.setCookie(this.cookie);
    const result = await fn();
    this.cookie = CookieStore.getCookie() ?? this.cookie;
    return result;
  }
}
