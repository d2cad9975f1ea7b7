// The report's states before there is anything to compare: no visits at all (say how visits arrive), and visits
// without any goal reached (show the visits alone).
import { html } from 'lit';
import { routeHash } from '../router.js';
import type { CampaignReport } from '../types.js';
import { scrollRegion } from '../widgets/scroll-region.js';
import { variationLabel } from './report-model.js';

/** The notice of a report without visits: what a visit is and where to watch them arrive. */
export const noVisitsNotice = () =>
  html`<div class="notice">
    <p><strong>No visits yet.</strong></p>
    <p>
      A visit is counted when a visitor is exposed to one of this campaign's variations: a page or app reads
      one of its flags with the SDK, which sends an exposure (an activation) to this server. Goals count when
      those visitors then send events or transactions.
    </p>
    <p>
      Open a page with the tags (or the <a href="/" target="_blank">demo page, in a new tab</a>) and watch
      exposures arrive in <a href=${routeHash({ name: 'live' })}>Live traffic</a>. This report refreshes by
      itself.
    </p>
  </div>`;

/** Visits and visitors per variation, for a report where no goal has been reached yet. */
export const visitsOnly = (report: CampaignReport, groupLabel: (groupId: string) => string) =>
  html`<p class="notice">
      No goal has been reached yet. Conversions appear once exposed visitors send an event (its action is the
      goal) or a transaction (its affiliation is the goal).
    </p>
    ${report.variation_groups.map((group) =>
      scrollRegion(
        `Visits in ${groupLabel(group.id)}`,
        html`<table>
          <caption>
            Results for ${groupLabel(group.id)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Variation</th>
              <th scope="col" class="num">Visits</th>
              <th scope="col" class="num">Visitors</th>
            </tr>
          </thead>
          <tbody>
            ${group.variations.map(
              (v) =>
                html`<tr>
                  <th scope="row">${variationLabel(v)}${v.reference ? ' (reference)' : ''}</th>
                  <td class="num">${v.visits}</td>
                  <td class="num">${v.visitors}</td>
                </tr>`,
            )}
          </tbody>
        </table>`,
      ),
    )}`;
