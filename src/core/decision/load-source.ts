import { Mode } from '../status.js';
import { createApiSource } from './api.js';
import type { CreateDecisionSource } from './source.js';

/**
 * The decision source of a mode. Bucketing mode's source (the engine and the bucketing file) is loaded with
 * `import()` from `./bucketing.js`, so pages in decision-API mode never download it; that module exports
 * `createBucketingSource: CreateDecisionSource`. Until it is part of the build, bucketing mode is refused at
 * `start` with a message rather than run half-way.
 */
export const loadDecisionSource = (mode: Mode): Promise<CreateDecisionSource> =>
  mode === Mode.BUCKETING
    ? Promise.reject(
        new Error('Feature.start: Mode.BUCKETING is not part of this build yet; use Mode.DECISION_API.'),
      )
    : Promise.resolve(createApiSource);
