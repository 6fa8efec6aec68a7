import type { APIClient } from '@wireapp/api-client';
import type { QualifiedId } from '@wireapp/api-client/lib/user/index.js';
import type { DeviceCrypto } from './crypto.js';
import { Waits } from './waits.js';

/** What the parts of the person's app share: the SDK, who signed in, the registered device. */
export class PageContext {
  self: QualifiedId | undefined;
  client: string | undefined;
  device: DeviceCrypto | undefined;
  /** The MLS cipher suite, from the backend's feature configuration. */
  suite = 1;
  readonly waits = new Waits();

  constructor(
    readonly api: APIClient,
    readonly version: number,
  ) {}

  get me(): QualifiedId {
    if (this.self === undefined) throw new Error('not signed in');
    return this.self;
  }

  get myClient(): string {
    if (this.client === undefined) throw new Error('no client registered in this profile');
    return this.client;
  }

  get deviceCrypto(): DeviceCrypto {
    if (this.device === undefined) throw new Error('no client registered in this profile');
    return this.device;
  }
}
