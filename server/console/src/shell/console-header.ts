// The header above every screen of the signed-in console (console-app.ts): a skip link to the content, the menu
// toggle of narrow screens, the product's name, the account and environment selects (account-choosers.ts) and
// Sign out. A template, not an element: the shell keeps the menu's state and the session.
import { html, type TemplateResult } from 'lit';
import type { ConsoleContext } from '../console-context.js';
import { accountChoosers } from './account-choosers.js';

/** What the header's buttons and selects do. */
export interface HeaderActions {
  /** Moves the focus to the screen's content. */
  skip: () => void;
  toggleMenu: () => void;
  choose: (what: 'account' | 'environment', id: string) => void;
  signOut: () => void;
}

/** The header; `menuOpen` says whether the menu (id "menu") is shown on a narrow screen. */
export const consoleHeader = (
  context: ConsoleContext,
  menuOpen: boolean,
  actions: HeaderActions,
): TemplateResult =>
  html`<header class="top">
    <button type="button" class="secondary skip" @click=${() => actions.skip()}>Skip to content</button>
    <button
      type="button"
      class="secondary menu-toggle"
      aria-controls="menu"
      aria-expanded=${menuOpen ? 'true' : 'false'}
      @click=${() => actions.toggleMenu()}
    >
      Menu
    </button>
    <span class="brand">feature console</span>
    ${accountChoosers(context, actions.choose)}
    <button type="button" class="secondary" @click=${() => actions.signOut()}>Sign out</button>
  </header>`;
