import type { NativePushJob, Transport } from '../../../shared/notifications/native-push.js';

/**
 * A native push as its platform takes it (an FCM data message, an APNs payload). It carries no
 * content, only that the user has a new notification: the device wakes and fetches it. Wire's
 * apps show APNs' alert until they have decrypted the message (`mutable-content`).
 */
export function noticeFor(transport: Transport, job: Pick<NativePushJob, 'user' | 'id'>): string {
  const data = { type: 'notice', data: { id: job.id }, user: job.user };
  if (transport === 'GCM') return JSON.stringify({ data, priority: 'high' });
  // APNs (VoIP tokens are refused at registration)
  return JSON.stringify({ aps: { alert: { title: 'New message' }, 'mutable-content': '1' }, data });
}
