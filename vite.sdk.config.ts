// The bundles the server serves under `/sdk/` to pages that load the SDK with a plain <script type="module">
// (no bundler of their own). Unlike dist/browser (library mode for application bundlers: whitespace kept, one
// shared module per chunk), these are minified whole and grouped by when a page needs them, because a page
// pays per file and per byte:
// - the entry (`elements.js` or `core.js`): what renders the first variation in decision-API mode: core, the
//   elements, lit, and everything `start` awaits, all imported statically;
// - the chunks the SDK core's two `import()` seams make: the after-first-render code (tracking manager, usage
//   statistics; loaded at start, not awaited: nothing renders from them) and bucketing mode (loaded only in
//   that mode), plus the elements' hit builders (loaded on the first hit) and what those chunks share.
// No file path or module pattern decides a chunk.
import { defaultClientConditions, defineConfig } from 'vite';

/**
 * `--mode elements` (`/sdk/elements.js`, the three tags) and `--mode core` (`/sdk/core.js`, the SDK alone) are two
 * builds into one folder, so a page of tags never downloads what only the SDK's other users need, nor the
 * reverse; the elements build runs first and empties the folder.
 */
export default defineConfig(({ mode }) => ({
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  // `#transport` (package.json `imports`) from the sources: `feature-ts-source` picks src/, and browser
  // conditions (no `node`) pick the fetch transport, so no bundle carries node:http.
  resolve: { conditions: ['feature-ts-source', ...defaultClientConditions] },
  build: {
    outDir: 'dist/sdk',
    emptyOutDir: mode === 'elements',
    target: 'es2022',
    // Vite 8's own minifier: measured here 591 B smaller first render than esbuild's (23 409 against 24 000 B
    // gzipped), 835 B smaller first 5 s, 361 B smaller bucketing chunk. esbuild was kept for its property
    // mangling, which is gone (no property mangling, DESIGN.md).
    minify: 'oxc',
    sourcemap: true,
    modulePreload: false,
    copyPublicDir: false,
    rolldownOptions: {
      input: mode === 'core' ? { core: 'src/core/index.ts' } : { elements: 'src/elements/define.ts' },
      preserveEntrySignatures: 'allow-extension',
      output: {
        entryFileNames: '[name].js',
        chunkFileNames: `${mode}/[name].js`,
      },
    },
  },
}));
