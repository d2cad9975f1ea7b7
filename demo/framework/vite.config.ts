// The framework demo: a React 19 app that uses the three tags, bundled from the package's source (the tags come
// from src/elements/define.ts, not /sdk/). Built into server/dist/demo/framework (the server package carries the demos), served by the server at
// /demo/framework/. JSX goes through Vite's own transform (oxc): no React plugin is needed for a build.
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/demo/framework/',
  // React and nanostores read process.env.NODE_ENV: the production branches only.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  // `#transport` (package.json `imports`) from the sources: `feature-ts-source` picks src/, and browser
  // conditions (no `node`) pick the fetch transport, so no bundle carries node:http.
  resolve: { conditions: ['feature-ts-source', ...defaultClientConditions] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: here('../../server/dist/demo/framework'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
});
