// What the context tests compare with: the public FeatureContext and the package version (PROTOCOL.md: the
// SDK's version is the package version).
import { readFileSync } from 'node:fs';

export { FeatureContext } from '../../src/core/node.js';

/** The version in package.json. */
export const SDK_VERSION_FOR_TESTS = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
