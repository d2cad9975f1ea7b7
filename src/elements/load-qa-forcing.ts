// The elements' QA seam: QA forcing's code (qa-forcing.ts) loads only on a page view whose provider has the
// `qa` attribute and whose URL asks for it (`?feature-qa=…`), so no visitor's page pays for it.
import type * as QaForcing from './qa-forcing.js';

/** The QA forcing module. */
export type QaForcingCode = typeof QaForcing;

/** Loads QA forcing's code (once: later calls get the same module). */
export const loadQaForcing = (): Promise<QaForcingCode> => import('./qa-forcing.js');
