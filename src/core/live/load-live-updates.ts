// A lazy boundary of its own (scripts/sdk-shape.ts lists it): the live-update code (event-stream parser,
// reconnects, visibility) is loaded only when `withLiveUpdates(true)`, after `start` has its source, and never
// awaited by the first render. Not in the after-first-render chunk: every start loads that one, live or not,
// and an application that never turns live updates on would pay for them.
import type * as Live from './live-updates.js';

/** What the live-update chunk gives the instance. */
export type LiveUpdatesCode = typeof Live;

/** Loads the live-update chunk. */
export const loadLiveUpdates = (): Promise<LiveUpdatesCode> => import('./live-updates.js');
