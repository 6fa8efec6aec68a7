/**
 * One person using the web app in this browser profile, as the test drives it through
 * `window.wire.person`: each method hands over to the part of the app that does it.
 */
import type { QualifiedId } from '@wireapp/api-client/lib/user/index.js';
import * as account from './account.js';
import * as clientRegistration from './client-registration.js';
import * as connections from './connections.js';
import { PageContext } from './context.js';
import * as images from './images.js';
import { Inbox, type ReceivedMessage } from './inbox.js';
import { handleIncoming } from './incoming.js';
import { MlsGroups } from './mls.js';
import { Notifications } from './notifications.js';
import * as proteus from './proteus.js';
import { startApi } from './web-app-api.js';

export type { LoggedEvent } from './notifications.js';

export class Person {
  private readonly inbox: Inbox;
  private readonly groups: MlsGroups;
  private readonly notifications: Notifications;

  private constructor(private readonly ctx: PageContext) {
    this.inbox = new Inbox(ctx.waits);
    this.groups = new MlsGroups(ctx, this.inbox);
    this.notifications = new Notifications(ctx, handleIncoming(ctx, this.inbox, this.groups));
  }

  static async start(version: number): Promise<Person> {
    return new Person(new PageContext(await startApi(version), version));
  }

  // --- account -------------------------------------------------------------------------------

  requestCode(email: string) {
    return account.requestCode(this.ctx, email);
  }

  signUp(form: { name: string; email: string; password: string; code: string }) {
    return account.signUp(this.ctx, form);
  }

  consent() {
    return account.consent(this.ctx);
  }

  setHandle(handle: string) {
    return account.setHandle(this.ctx, handle);
  }

  logout() {
    return account.logout(this.ctx);
  }

  login(email: string, password: string) {
    return account.login(this.ctx, email, password);
  }

  refresh() {
    return account.refresh(this.ctx);
  }

  registerClient(password: string, consumable: boolean) {
    return clientRegistration.registerClient(this.ctx, password, consumable);
  }

  // --- notifications ---------------------------------------------------------------------------

  listen(consumable: boolean) {
    return this.notifications.listen(consumable);
  }

  until<T>(check: () => T | undefined, what: string, timeoutMs?: number) {
    return this.ctx.waits.until(check, what, timeoutMs);
  }

  stream() {
    return this.notifications.stream();
  }

  pingInterval() {
    return this.notifications.pingInterval();
  }

  eventsSocketState() {
    return this.notifications.eventsSocketState();
  }

  events(types?: string[]) {
    return this.notifications.events(types);
  }

  connectionEvent(status: string) {
    return this.notifications.connectionEvent(status);
  }

  // --- connections and conversations -----------------------------------------------------------

  connect(to: QualifiedId) {
    return connections.connect(this.ctx, to);
  }

  accept(from: QualifiedId) {
    return connections.accept(this.ctx, from);
  }

  conversation(id: QualifiedId) {
    return connections.conversation(this.ctx, id);
  }

  // --- messages --------------------------------------------------------------------------------

  message(want: Partial<Pick<ReceivedMessage, 'via' | 'text' | 'messageId'>> & { conversation?: string }) {
    return this.inbox.message(want);
  }

  sendText(conversation: QualifiedId, text: string) {
    return proteus.sendText(this.ctx, conversation, text);
  }

  sendImage(conversation: QualifiedId) {
    return images.sendImage(this.ctx, conversation);
  }

  showImage(messageId: string) {
    return images.showImage(this.ctx, this.inbox, messageId);
  }

  createMlsGroup(name: string, member: QualifiedId) {
    return this.groups.create(name, member);
  }

  joined(conversation: QualifiedId) {
    return this.groups.joined(conversation);
  }

  sendMls(conversation: QualifiedId, text: string) {
    return this.groups.send(conversation, text);
  }
}
