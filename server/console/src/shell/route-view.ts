// The screen of each route. The views get the shared state from <console-app> through @lit/context, so a route
// hands them only what the address says (which campaign).
import { html, type TemplateResult } from 'lit';
import type { Route } from '../router.js';
import '../campaigns/campaigns-view.js';
import '../campaigns/campaign-editor.js';
import '../report/report-view.js';
import '../live/live-view.js';
import '../settings/account-view.js';
import '../settings/environments-view.js';
import '../settings/remote-control-view.js';
import '../settings/webhooks-view.js';
import '../people/users-view.js';
import '../people/sso-settings-view.js';
import '../audit/audit-log-view.js';
import '../audit/campaign-history-view.js';

/** The view element of `route`. */
export const routeView = (route: Route): TemplateResult => {
  switch (route.name) {
    case 'campaigns':
      return html`<campaigns-view></campaigns-view>`;
    case 'campaign-new':
      return html`<campaign-editor .campaignId=${null}></campaign-editor>`;
    case 'campaign':
      return html`<campaign-editor .campaignId=${route.campaignId}></campaign-editor>`;
    case 'report':
      return html`<report-view .campaignId=${route.campaignId}></report-view>`;
    case 'live':
      return html`<live-view></live-view>`;
    case 'account':
      return html`<account-view></account-view>`;
    case 'environments':
      return html`<environments-view></environments-view>`;
    case 'remote-control':
      return html`<remote-control-view></remote-control-view>`;
    case 'webhooks':
      return html`<webhooks-view></webhooks-view>`;
    case 'users':
      return html`<users-view></users-view>`;
    case 'sso':
      return html`<sso-settings-view></sso-settings-view>`;
    case 'audit':
      return html`<audit-log-view></audit-log-view>`;
    case 'history':
      return html`<campaign-history-view .campaignId=${route.campaignId}></campaign-history-view>`;
  }
};
