// One of the SDK core's two lazy boundaries (the other is `decision/load-source.ts`): the after-first-render
// code is the only `import()` here, so every bundler (vite's `/sdk/` build, an application's) splits it into
// one chunk without being told which files belong to it.
import type * as AfterRender from './after-render.js';

/** What the after-first-render chunk gives the instance: the tracker's factory and usage sampling. */
export type AfterRenderCode = typeof AfterRender;

/** Starts loading the after-first-render chunk; `start` calls it first and does not await it. */
export const loadAfterRender = (): Promise<AfterRenderCode> => import('./after-render.js');
