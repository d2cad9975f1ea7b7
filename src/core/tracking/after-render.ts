// The code that first runs after the first render: the tracking manager (pool, cache, batches, retries, hit
// classes' checks) and developer usage statistics. One chunk, loaded through `load-after-render.ts`: nothing
// the first variation needs waits for it.
export { createTracker } from './manager.js';
export { usageTracker } from '../usage/usage-tracker.js';
