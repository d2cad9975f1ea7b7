// The elements' side of the after-first-render seam (the core's is `core/tracking/load-after-render.ts`): the
// hits the elements build, and the hit classes and field checks they use, are not needed to render a
// variation, so they load with the first hit an element sends. This is the elements' only `import()`.
import type * as HitBuilders from './hit-builders.js';

/** The hit builders' module. */
export type HitBuilderCode = typeof HitBuilders;

/** Loads the hit builders (once: later calls get the same module). */
export const loadHitBuilders = (): Promise<HitBuilderCode> => import('./hit-builders.js');
