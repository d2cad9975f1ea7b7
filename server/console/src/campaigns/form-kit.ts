// What the editor's parts share: each input's id is made from the field path the server uses in its errors
// (`variation_groups[0].name` → `f-variation_groups-0-name`), so a server error finds its input, and the kit
// records which paths were shown next to an input so that the rest go into the error summary; the summary's
// buttons focus an input by its path.
import { html, nothing, type TemplateResult } from 'lit';

/** The editor's services for the template functions of its parts. */
export interface FormKit {
  /** The message of `path`, if any; records that the path is shown next to its input. */
  error(path: string): string | undefined;
  /** Re-renders after the draft changed. */
  changed(): void;
}

/** The id of the input for a field path. */
export const fieldId = (path: string): string =>
  `f-${path.replace(/[^A-Za-z0-9_]+/g, '-').replace(/-+$/, '')}`;

/** The id of the error message of a field path. */
export const errorId = (path: string): string => `${fieldId(path)}-error`;

/** The error message element of `path`, or nothing. */
export const errorSlot = (kit: FormKit, path: string): TemplateResult | typeof nothing => {
  const message = kit.error(path);
  return message === undefined ? nothing : html`<p id=${errorId(path)} class="error">${message}</p>`;
};

/** aria-invalid and aria-describedby values of an input: its hint (if any) and its error (if any). */
export const described = (
  kit: FormKit,
  path: string,
  hint?: string,
): { invalid: 'true' | 'false'; describedBy: string | typeof nothing } => {
  const bad = kit.error(path) !== undefined;
  const ids = [hint, bad ? errorId(path) : undefined].filter((id) => id !== undefined);
  return { invalid: bad ? 'true' : 'false', describedBy: ids.length === 0 ? nothing : ids.join(' ') };
};

/** The value of an input, select or textarea event target. */
export const valueOf = (event: Event): string =>
  (event.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement).value;

/** Focuses the input of a field path in `root`: by its id, else the element that names the path (a group). */
export const focusField = (root: ParentNode, path: string): void => {
  const target =
    root.querySelector<HTMLElement>(`#${fieldId(path)}`) ??
    root.querySelector<HTMLElement>(`[data-path="${CSS.escape(path)}"]`);
  target?.focus();
};
