/** The push services a device token belongs to (wire's `Transport`). */
export const TRANSPORTS = ['GCM', 'APNS', 'APNS_SANDBOX', 'APNS_VOIP', 'APNS_VOIP_SANDBOX'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** A device's push token as clients register it (`PushToken`). */
export interface PushToken {
  transport: Transport;
  app: string;
  token: string;
  client: string;
}

/** A registered token: the gateway's handle on the device (an SNS endpoint ARN), and the registering connection. */
export interface PushAddress extends PushToken {
  endpoint: string;
  connection: string;
}

/**
 * What a notification object hands the native push queue: a notification for a user whose
 * devices it did not reach over a websocket, and the addresses to wake. The push says only that
 * there is something new (the notification id): the device fetches it itself.
 */
export interface NativePushJob {
  user: string;
  id: string;
  to: PushAddress[];
}
