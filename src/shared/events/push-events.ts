import type { PushToken } from '../notifications/native-push.js';

/** `user.push-remove`, to the client whose device no longer takes native pushes: its token was removed. */
export const pushRemovedEvent = (a: PushToken) => ({
  type: 'user.push-remove' as const,
  token: { transport: a.transport, app: a.app, token: a.token, client: a.client },
});
