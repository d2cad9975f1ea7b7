// The campaign editor's parts are template functions over a draft, not elements: this harness renders one the way
// <campaign-editor> does, with a kit that shows the server's messages by path and the live problems of the draft
// (draftToBody's issues), and re-renders on `kit.changed()`. Tests act on the inputs and read the body the editor
// would send.
import { fixture } from '@open-wc/testing';
import { html, render, type TemplateResult } from 'lit';
import type { JsonValue } from '../../../src/protocol/index.js';
import { draftToBody, type CampaignDraft } from '../../../server/console/src/campaigns/campaign-draft.js';
import type { FormKit } from '../../../server/console/src/campaigns/form-kit.js';

/** A rendered part, the draft it edits, and what it did. */
export interface Part {
  root: HTMLElement;
  /** How many times the part reported a change. */
  readonly changes: number;
  /** The PATCH body the editor would send now. */
  body(): Record<string, JsonValue>;
  /** The problems the editor would list now, by field path. */
  issues(): Map<string, string>;
  /** The element of `selector` in the part; fails when there is none. */
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- as querySelector<E>: the test knows the element
  find<E extends Element = HTMLElement>(selector: string): E;
}

/** Renders `part(kit)` over `draft`; `serverErrors` are the messages of a refused save, by field path. */
export const renderPart = async (
  draft: CampaignDraft,
  part: (kit: FormKit) => TemplateResult,
  serverErrors: ReadonlyMap<string, string> = new Map(),
): Promise<Part> => {
  const root = await fixture<HTMLElement>(html`<div></div>`);
  let changes = 0;
  const kit: FormKit = {
    error: (path) => {
      const issue = draftToBody(draft, false).issues.get(path);
      return serverErrors.get(path) ?? (issue?.live === true ? issue.message : undefined);
    },
    changed: () => {
      changes += 1;
      render(part(kit), root);
    },
  };
  render(part(kit), root);
  return {
    root,
    get changes() {
      return changes;
    },
    body: () => draftToBody(draft, false).body,
    issues: () =>
      new Map([...draftToBody(draft, false).issues].map(([path, issue]) => [path, issue.message])),
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- as querySelector<E>
    find: <E extends Element = HTMLElement>(selector: string): E => {
      const found = root.querySelector<E>(selector);
      if (found === null) throw new Error(`no ${selector} in the part`);
      return found;
    },
  };
};

/** The groups of a body, typed loosely enough to read. */
export type BodyGroups = Array<{
  id?: string;
  name: string;
  targeting: {
    targeting_groups: Array<{ targetings: Array<{ key: string; operator: string; value: JsonValue }> }>;
  };
  variations: Array<{
    id?: string;
    name: string;
    reference: boolean;
    allocation: number;
    modifications: { type: string; value: Record<string, JsonValue> };
  }>;
}>;

/** The variation groups of `part`'s body. */
export const groupsOf = (part: Part): BodyGroups => part.body().variation_groups as unknown as BodyGroups;
