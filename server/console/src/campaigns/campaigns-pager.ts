// The pages of the campaigns list (campaigns-view.ts): 20 rows a page, the page asked for kept within the pages
// there are (a narrower search may leave fewer), and the Previous / Next navigation under the table when there
// is more than one page. Apart so that the view's table reads as its rows.
import { html, nothing, type TemplateResult } from 'lit';

/** Rows per page of the table. */
const PAGE_SIZE = 20;

/** One page of rows, the page it is (from 1) and how many pages there are (at least 1). */
export interface Page<T> {
  rows: T[];
  page: number;
  pages: number;
}

/** The page `asked` of `items` (the last one when there are fewer pages now). */
export const pageOf = <T>(items: readonly T[], asked: number): Page<T> => {
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const page = Math.min(asked, pages);
  return { rows: items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), page, pages };
};

/** Previous page, "Page n of m", Next page; nothing for a single page. `go` gets the page to show. */
export const campaignsPager = (
  { page, pages }: Page<unknown>,
  go: (page: number) => void,
): TemplateResult | typeof nothing =>
  pages > 1
    ? html`<nav class="row pager" aria-label="Pages of campaigns">
        <button type="button" class="secondary" ?disabled=${page === 1} @click=${() => go(page - 1)}>
          Previous page
        </button>
        <span>Page ${page} of ${pages}</span>
        <button type="button" class="secondary" ?disabled=${page === pages} @click=${() => go(page + 1)}>
          Next page
        </button>
      </nav>`
    : nothing;
