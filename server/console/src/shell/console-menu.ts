// The console's menu, laid out as the specification names the settings (Settings > Account, API Key & Settings,
// Integrations > Remote Control API, then the team's Users, Single sign-on and Audit log); the entry of the current screen is
// marked for assistive technology. An entry whose screen needs a role the caller lacks in the chosen account is
// left out: its routes would only answer 403.
import { html, nothing, type TemplateResult } from 'lit';
import type { Role } from '../roles.js';
import { routeHash, type Route } from '../router.js';

const MENU: ReadonlyArray<{ route: Route; label: string; group?: string; need?: Role }> = [
  { route: { name: 'campaigns' }, label: 'Campaigns' },
  { route: { name: 'live' }, label: 'Live traffic' },
  { route: { name: 'account' }, label: 'Account', group: 'Settings' },
  { route: { name: 'environments' }, label: 'API Key & Settings', group: 'Settings' },
  { route: { name: 'remote-control' }, label: 'Integrations › Remote Control API', group: 'Settings' },
  { route: { name: 'webhooks' }, label: 'Integrations › Webhooks', group: 'Settings' },
  { route: { name: 'users' }, label: 'Users', group: 'Team', need: 'admin' },
  { route: { name: 'sso' }, label: 'Single sign-on', group: 'Team', need: 'admin' },
  { route: { name: 'audit' }, label: 'Audit log', group: 'Team', need: 'admin' },
];

/** Which menu entry a route belongs to (a campaign's editor, report and history sit under Campaigns). */
const menuOf = (route: Route): Route['name'] =>
  route.name === 'campaign' ||
  route.name === 'campaign-new' ||
  route.name === 'report' ||
  route.name === 'history'
    ? 'campaigns'
    : route.name;

/**
 * The menu, with the entry of `route` current; `open` unfolds it at phone widths; `may` says whether the caller
 * holds a role in the chosen account (entries that need one they lack are left out).
 */
export const consoleMenu = (
  route: Route,
  open: boolean,
  may: (need: Role) => boolean = () => true,
): TemplateResult => {
  const current = menuOf(route);
  let group: string | undefined;
  const items: TemplateResult[] = [];
  for (const entry of MENU) {
    if (entry.need !== undefined && !may(entry.need)) continue;
    if (entry.group !== group && entry.group !== undefined)
      items.push(html`<li class="menu-group" aria-hidden="true">${entry.group}</li>`);
    group = entry.group;
    items.push(
      html`<li>
        <a
          href=${routeHash(entry.route)}
          aria-current=${current === entry.route.name ? 'page' : nothing}
          aria-label=${entry.group === undefined ? nothing : `${entry.group}: ${entry.label}`}
          >${entry.label}</a
        >
      </li>`,
    );
  }
  return html`<nav id="menu" class=${open ? 'open' : ''} aria-label="Console">
    <ul>
      ${items}
    </ul>
  </nav>`;
};
