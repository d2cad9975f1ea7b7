// The OpenFeature demo: a page that reads the demo environment's flags through `@openfeature/web-sdk` and our
// FeatureWebProvider, bundled from the package's source. `feature-ts` and `feature-ts/openfeature` are aliased to
// src/, so the page and the provider share one SDK module, as they do in an application that installs the
// package. Built into server/dist/demo/openfeature (the server package carries the demos), served by the server
// at /demo/openfeature/.
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/demo/openfeature/',
  resolve: {
    alias: [
      { find: /^feature-ts$/, replacement: here('../../src/core/index.ts') },
      { find: /^feature-ts\/openfeature$/, replacement: here('../../src/openfeature/index.ts') },
    ],
    // `#transport` (package.json `imports`) from the sources, with browser conditions: the fetch transport.
    conditions: ['feature-ts-source', ...defaultClientConditions],
  },
  build: {
    outDir: here('../../server/dist/demo/openfeature'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
});
