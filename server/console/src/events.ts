// Every event the console's elements send, in one map: a listener (`@access-created=${…}` or addEventListener)
// gets its detail typed from the name, and a sender cannot send a name or a detail the map does not list.
import type { SessionAnswer } from './api.js';
import type { Access, Environment, Member, Webhook } from './types.js';

/** What a new API key of an environment card is: made by rotation there. */
export interface KeyRotatedDetail {
  envId: string;
  apiKey: string;
}

/** What a person answered to a join link's invitation. */
export interface JoinAnsweredDetail {
  accountId: string;
  accountName: string;
  answer: 'join' | 'decline';
}

/** The console's event names and the detail each carries (`undefined`: the name says it all). */
export interface ConsoleEventDetails {
  /** <sign-in-view>: the session was opened. */
  'signed-in': SessionAnswer;
  /** <join-invitation-view>: the person joined the account, or declined. */
  'join-answered': JoinAnsweredDetail;
  /** <join-invitation-view>: the person leaves the invitation unanswered, for the console. */
  'join-left': undefined;
  /** <join-invitation-view>: the link is another person's: the shell signs out. */
  'sign-out-requested': undefined;
  /** <access-create-form>: the server made an access (without its secret). */
  'access-created': Access;
  /** <access-list>: an access changed (was revoked); as the server has it now. */
  'access-changed': Access;
  /** <webhook-create-form>: the server made a webhook (without its secret). */
  'webhook-created': Webhook;
  /** <user-invite-form>: the server made (or re-invited) a member. */
  'member-invited': Member;
  /** <environment-card>: the server accepted a change; the environment now. */
  'environment-changed': Environment;
  /** <environment-card>: a new API key was made; the owner shows it once. */
  'key-rotated': KeyRotatedDetail;
  /** <environment-card>: the user stored the key shown; the owner forgets it. */
  'key-dismissed': undefined;
  /** <secret-once>: the user stored the values shown; the owner forgets them. */
  'secret-dismissed': undefined;
  /** <undo-notice>: the user asked to undo the change it tells. */
  undo: undefined;
  /** <undo-notice>: its time is up; the owner removes it. */
  'notice-expired': undefined;
  /** <traffic-table>: show only this visitor's traffic. */
  'visitor-filter': { visitor: string };
}

/** The console's events as the DOM types them. */
export type ConsoleEventMap = { [K in keyof ConsoleEventDetails]: CustomEvent<ConsoleEventDetails[K]> };

// Augmenting HTMLElementEventMap types lit's `@name=${(event) => …}` bindings and addEventListener alike.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends ConsoleEventMap {}
}

/**
 * Sends a console event from `element`: bubbling and composed, so an owner's listener hears it from inside the
 * element's shadow root, the way a native `change` reaches it.
 */
export const emit = <K extends keyof ConsoleEventDetails>(
  element: HTMLElement,
  name: K,
  detail: ConsoleEventDetails[K],
): void => {
  element.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
};
