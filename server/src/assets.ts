// Where the server finds the files it serves beside its API. The SDK bundles belong to the SDK package: they
// are read from the installed `feature-ts` (its dist/sdk), so a server always serves the SDK it depends on. The
// demo pages belong to this package: the build copies them into its dist/demo.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server package's folder (where its package.json is), from this module under src/ or dist/. */
export const serverPackageRoot = (): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
};

/** The folder of the `/sdk/` bundles: `dist/sdk` of the `feature-ts` package this server depends on. */
export const sdkBundleDir = (): string => {
  const require = createRequire(join(serverPackageRoot(), 'package.json'));
  return join(dirname(require.resolve('feature-ts/package.json')), 'dist', 'sdk');
};

/** The demo shop page's folder (index.html), built into this package's dist/demo. */
export const demoPageDir = (): string => join(serverPackageRoot(), 'dist', 'demo');

/** The framework (React) demo's folder, built into this package's dist/demo/framework. */
export const frameworkDemoDir = (): string => join(demoPageDir(), 'framework');

/** The OpenFeature demo's folder, built into this package's dist/demo/openfeature. */
export const openfeatureDemoDir = (): string => join(demoPageDir(), 'openfeature');

/** The browser console's folder (index.html and assets/), built into this package's dist/console. */
export const consoleDir = (): string => join(serverPackageRoot(), 'dist', 'console');
