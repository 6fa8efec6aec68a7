import type { PageContext } from './context.js';
import type { Inbox } from './inbox.js';
import type { MlsGroups } from './mls.js';
import type { WireEvent } from './notifications.js';
import { receiveProteus } from './proteus.js';

/** What the page does with each event it handles: decrypts messages into the inbox, joins MLS groups. */
export function handleIncoming(ctx: PageContext, inbox: Inbox, groups: MlsGroups) {
  return async (event: WireEvent): Promise<void> => {
    switch (event.type) {
      case 'conversation.otr-message-add':
        return receiveProteus(ctx, inbox, event);
      case 'conversation.mls-welcome':
        return groups.join(event);
      case 'conversation.mls-message-add':
        return groups.receive(event);
    }
  };
}
