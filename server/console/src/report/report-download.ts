// The report's CSV download: the figures on screen, unrounded, as a file made in the page (a blob: URL, which the
// console's CSP leaves to downloads), so the download needs no second request and matches what is shown.
import { html, type TemplateResult } from 'lit';
import type { CampaignReport } from '../types.js';
import { reportCsv, reportCsvFileName } from './report-csv.js';

/** Downloads `report` as CSV through a hidden link appended to `root` (a shadow root keeps it out of the page). */
export const downloadReportCsv = (
  report: CampaignReport,
  groupLabel: (groupId: string) => string,
  root: DocumentFragment | HTMLElement,
): void => {
  // A byte order mark so that spreadsheets read the UTF-8 names (goals and variations come from users).
  const blob = new Blob(['\uFEFF', reportCsv(report, groupLabel)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = reportCsvFileName(report);
  link.hidden = true;
  root.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by then; revoking it at once is known to cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
};

/** The download button and its hint; `download` runs on click. */
export const csvDownload = (download: () => void): TemplateResult =>
  html`<button type="button" class="secondary" aria-describedby="csv-hint" @click=${download}>
      Download CSV
    </button>
    <span class="hint" id="csv-hint"
      >One row per group, variation and goal, with every figure unrounded.</span
    >`;
