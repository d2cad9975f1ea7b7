import { Mode } from '../status.js';
import { createApiSource } from './api.js';
import type { CreateDecisionSource } from './source.js';

/**
 * The decision source of a mode. Bucketing mode's source (the engine and the bucketing file) is loaded with
 * `import()` from `./bucketing.js`, so pages in decision-API mode never download it.
 */
export const loadDecisionSource = async (mode: Mode): Promise<CreateDecisionSource> =>
  mode === Mode.BUCKETING ? (await import('./bucketing.js')).createBucketingSource : createApiSource;
