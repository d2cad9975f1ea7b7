// The top of the campaign editor's page (campaign-editor.ts): its title (New campaign, Campaign while loading,
// Edit <name>) and the links back to the list and, for a stored campaign, to its report and history. Apart so
// that the editor's element reads as loading and saving.
import { html, nothing, type TemplateResult } from 'lit';
import type { RemoteCampaign } from 'feature-ts/protocol';
import { routeHash } from '../router.js';

/** The page's title: `campaignId` null is a new campaign; `campaign` null is one still loading. */
export const editorTitle = (campaignId: string | null, campaign: RemoteCampaign | null): string =>
  campaignId === null ? 'New campaign' : campaign === null ? 'Campaign' : `Edit ${campaign.name}`;

/** The links under the title: back to the campaigns, and a stored campaign's report and history. */
export const editorLinks = (campaignId: string | null): TemplateResult =>
  html`<p class="row top-links">
    <a href=${routeHash({ name: 'campaigns' })}>Back to campaigns</a>
    ${
      campaignId === null
        ? nothing
        : html`<a href=${routeHash({ name: 'report', campaignId })}>Report</a>
            <a href=${routeHash({ name: 'history', campaignId })}>History</a>`
    }
  </p>`;
