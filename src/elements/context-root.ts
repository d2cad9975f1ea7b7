import { ContextRoot } from '@lit/context';

const ATTACHED = Symbol.for('feature-ts.context-root');

/**
 * Attaches one `ContextRoot` to the document (once, whichever bundle asks first). It keeps the requests of
 * flags and hits that upgrade before their provider (per-element modules load in any order) and replays them
 * when the provider announces itself, so they still find it.
 */
export const attachContextRoot = (): void => {
  const holder = document as Document & { [ATTACHED]?: true };
  if (holder[ATTACHED]) return;
  holder[ATTACHED] = true;
  new ContextRoot().attach(document.documentElement);
};
