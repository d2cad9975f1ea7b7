// Browser bundles (ES modules). Node code is compiled by tsc (`tsc -b tsconfig.build.json` → dist/lib), so
// Node loads plain modules with no bundler in between; vite only builds what browsers download.
import { defaultClientConditions, defineConfig } from 'vite';

// Chunks follow the SDK core's two `import()` seams and nothing else: the entries and what they import
// statically, the after-first-render chunk (tracking manager, usage statistics) and bucketing mode's chunk,
// plus whatever modules those share. No file path or module pattern decides a chunk.
export default defineConfig({
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  // `#transport` (package.json `imports`) from the sources: `feature-ts-source` picks src/, and browser
  // conditions (no `node`) pick the fetch transport, so no bundle carries node:http.
  resolve: { conditions: ['feature-ts-source', ...defaultClientConditions] },
  build: {
    outDir: 'dist/browser',
    emptyOutDir: true,
    target: 'es2022',
    minify: 'esbuild',
    sourcemap: true,
    lib: {
      // `elements` registers the three tags (`/sdk/elements.js`); the others register one tag each.
      entry: {
        core: 'src/core/index.ts',
        elements: 'src/elements/define.ts',
        'feature-provider': 'src/elements/define-feature-provider.ts',
        'feature-flag': 'src/elements/define-feature-flag.ts',
        'feature-hit': 'src/elements/define-feature-hit.ts',
      },
      formats: ['es'],
    },
    rolldownOptions: {
      output: {
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name].js',
      },
    },
  },
});
