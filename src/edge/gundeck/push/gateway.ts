import type { PushAddress, PushToken } from '../../../shared/notifications/native-push.js';

/**
 * A native push service, as gundeck uses it: devices are registered there, pushes go to what it
 * registered. Which one is gundeck's configuration (`aws`: Amazon SNS); none means no native pushes.
 */
export interface PushGateway {
  /** The gateway's endpoint for a user's device token (a device shared by users has one). Throws ApiErrors. */
  register(user: string, token: PushToken): Promise<string>;
  /** `gone`: the device takes no more pushes, its address is to be removed. Throws when it may pass. */
  publish(address: PushAddress, notice: string): Promise<'sent' | 'gone'>;
  /** The user no longer uses the endpoint; the last user's release deletes it. */
  release(user: string, endpoint: string): Promise<void>;
}
