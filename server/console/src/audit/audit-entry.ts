// One audit log entry as the Audit log and a campaign's History show it (docs/teams.md "An entry"): when, who
// (their label, what kind of caller, from which address), what (the action and its subject), and the diff as
// lines "path: before → after". A value longer than a line is folded behind a native "Show" toggle
// (<details>), so a campaign's whole body does not bury the lines around it; an absent side reads "(none)".
import { css, html, nothing, type TemplateResult } from 'lit';
import { shortDateTime } from '../settings/action-labels.js';
import type { AuditDiffLine, AuditEntry } from '../types.js';

/** Values longer than this (as JSON) are folded. */
const FOLD_AT = 60;

/** What each kind of caller reads as. */
const ACTOR_KINDS: Readonly<Record<string, string>> = {
  user: 'person',
  access: 'remote access',
  operator_key: 'operator key',
  cli: 'command line',
  system: 'server upkeep',
  anonymous: 'not signed in',
};

/** The caller kind in words. */
export const actorKindLabel = (kind: string): string => ACTOR_KINDS[kind] ?? kind;

// The values come from JSON, so every one has a JSON text.
const valueText = (value: unknown): string => JSON.stringify(value, null, 2);

const side = (line: AuditDiffLine, which: 'before' | 'after'): TemplateResult => {
  if (!(which in line)) return html`<span class="muted">(none)</span>`;
  const text = valueText(line[which]);
  if (text.length <= FOLD_AT && !text.includes('\n')) return html`<code>${text}</code>`;
  return html`<details>
    <summary>
      Show<span class="visually-hidden"> the value ${which}</span> (${text.length} characters)
    </summary>
    <pre tabindex="0">${text}</pre>
  </details>`;
};

/** The diff of an entry as "path: before → after" lines ("" path: the whole subject). */
export const diffLines = (diff: readonly AuditDiffLine[]): TemplateResult => {
  if (diff.length === 0) return html`<p class="hint">No value changed.</p>`;
  return html`<ul class="diff">
    ${diff.map(
      (line) =>
        html`<li>
          <code class="path">${line.path === '' ? '(all of it)' : line.path}</code>: ${side(line, 'before')}
          <span aria-label="became">→</span> ${side(line, 'after')}
        </li>`,
    )}
  </ul>`;
};

/** Who made the change: label, kind and address. */
export const actorText = (entry: AuditEntry): string => {
  const { label, kind, address } = entry.actor;
  return `${label} (${actorKindLabel(kind)}${address === null ? '' : `, from ${address}`})`;
};

/** An entry: a heading line (when, action, subject), who, the details the states do not say, the diff. */
export const auditEntry = (entry: AuditEntry, extra: TemplateResult | typeof nothing = nothing) =>
  html`<article class="entry" aria-labelledby="entry-${entry.seq}">
    <h3 id="entry-${entry.seq}">
      <time datetime=${entry.at}>${shortDateTime(entry.at)}</time> ·
      <code>${entry.action}</code>
      ${entry.subject.id === null ? nothing : html`<span class="muted">${entry.subject.kind} ${entry.subject.id}</span>`}
    </h3>
    <p class="who">By ${actorText(entry)}</p>
    ${entry.details === null ? nothing : html`<p class="hint">Details: <code>${JSON.stringify(entry.details)}</code></p>`}
    ${diffLines(entry.diff)} ${extra}
  </article>`;

/** Styles of entries and their diffs. */
export const auditEntryStyles = css`
  .entries {
    list-style: none;
    padding: 0;
    margin: 0;
  }
  .entry {
    border: 1px solid var(--line);
    border-radius: 8px;
    padding: 0.6rem 0.8rem;
    margin: 0 0 0.75rem;
    background: #fff;
    overflow-wrap: anywhere;
  }
  .entry h3 {
    font-size: 1rem;
    margin: 0 0 0.25rem;
  }
  .entry .who {
    margin: 0 0 0.25rem;
  }
  .diff {
    margin: 0.25rem 0 0;
    padding-left: 1.25rem;
  }
  .diff li {
    margin: 0 0 0.25rem;
  }
  .diff pre {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    background: #f6f8fa;
    border-radius: 6px;
    padding: 0.4rem 0.5rem;
    margin: 0.25rem 0;
    max-height: 20rem;
    overflow: auto;
  }
  .diff details {
    display: inline-block;
    vertical-align: top;
  }
  .diff details[open] {
    display: block;
  }
  .diff summary {
    display: inline-block;
    cursor: pointer;
    color: var(--primary);
    text-decoration: underline;
  }
`;
