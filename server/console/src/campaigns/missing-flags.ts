// What a save would leave to the page's defaults without anyone choosing it: a variation that leaves out a flag
// the group sets (its cell was never filled in), and a group whose variations set no flag at all. The server
// accepts both (a variation stored without a key shows the default to its share of visitors), so the editor
// asks before saving. A cell set to "Not set (default)" is a choice (null on the wire, PROTOCOL.md §9.1) and is
// never warned about: that is how a reference deliberately keeps the page's default.
import type { CampaignDraft } from './campaign-draft.js';
import { fieldId } from './form-kit.js';

/** One thing a save would leave to the defaults, in words, with the id of the input to fix it in. */
export interface MissingFlag {
  message: string;
  /** The input to go to: the empty cell, or the group's "Add flag" button. */
  inputId: string;
}

/** The id of the value input of flag row `f` in variation `k` of group `g`. */
export const cellId = (g: number, f: number, k: number): string => `flag-cell-${g}-${f}-${k}`;

const listed = (keys: readonly string[]): string => keys.map((key) => `“${key}”`).join(', ');

/** Every variation that leaves out a flag of its group, and every group that sets none. */
export const missingFlags = (draft: CampaignDraft): MissingFlag[] => {
  const found: MissingFlag[] = [];
  draft.groups.forEach((group, g) => {
    const where = draft.groups.length > 1 ? ` (group “${group.name.trim() || g + 1}”)` : '';
    if (group.flags.length === 0) {
      found.push({
        message: `No variation${where} sets a flag: every visitor of the group sees the page's defaults. Add the flags the variations change.`,
        inputId: fieldId(`variation_groups[${g}].flags`),
      });
      return;
    }
    group.variations.forEach((variation, k) => {
      const left = group.flags.flatMap((row, f) =>
        row.key.trim() !== '' && variation.cells[f]?.state === 'missing' ? [f] : [],
      );
      const [first] = left;
      if (first === undefined) return;
      const name = `“${variation.name.trim() || `Variation ${k + 1}`}”${where}`;
      const keys = left.map((f) => group.flags[f]?.key.trim() ?? '');
      found.push({
        message:
          left.length === group.flags.length
            ? `${name} sets no flag (${listed(keys)}): its visitors see the page's defaults.`
            : `${name} does not set ${listed(keys)}: its visitors see the page's default for ${left.length === 1 ? 'it' : 'them'}.`,
        inputId: cellId(g, first, k),
      });
    });
  });
  return found;
};
