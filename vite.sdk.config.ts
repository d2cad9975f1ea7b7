// The bundles the server serves under `/sdk/` to pages that load the SDK with a plain <script type="module">
// (no bundler of their own). Unlike dist/browser (library mode for application bundlers: whitespace kept, one
// shared module per chunk), these are minified whole and grouped by when a page needs them, because a page
// pays per file and per byte:
// - `chunks/start.js`: what renders the first variation in decision-API mode: core, the elements, lit's
//   reactive element and context, and the chunks `start` awaits (visitor cache, device context, IndexedDB);
// - lazy chunks: the tracking manager and usage statistics (loaded at start, not awaited: nothing renders from
//   them) and bucketing mode (loaded only in that mode).
import { defineConfig } from 'vite';

/** Modules that load after the first render, or only in bucketing mode: they keep their own chunks. */
const AFTER_RENDER =
  /[\\/]src[\\/](elements[\\/]hit-builders|core[\\/](tracking[\\/](manager(-[\w-]+)?|batches|exposures|transport|uuid|wire|hits|hit-fields|segment-hit)|http|retry|request-failure|usage|usage-hit|decision[\\/](bucketing|bucketing-file-cache|poller))|engine[\\/](?!flags))/;

/** What the first render needs (everything else an entry reaches statically, plus what `start` awaits). */
const FIRST_RENDER =
  /[\\/](src[\\/](core|protocol|elements)[\\/]|src[\\/]engine[\\/]flags|node_modules[\\/](nanostores|idb|@lit)[\\/])/;

/**
 * `--mode elements` (`/sdk/elements.js`, the three tags) and `--mode core` (`/sdk/core.js`, the SDK alone) are two
 * builds into one folder, so a page of tags never downloads what only the SDK's other users need, nor the
 * reverse; the elements build runs first and empties the folder.
 */
export default defineConfig(({ mode }) => ({
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist/sdk',
    emptyOutDir: mode === 'elements',
    target: 'es2022',
    minify: 'esbuild',
    sourcemap: true,
    modulePreload: false,
    copyPublicDir: false,
    rolldownOptions: {
      input: mode === 'core' ? { core: 'src/core/index.ts' } : { elements: 'src/elements/define.ts' },
      preserveEntrySignatures: 'strict',
      // Here the start chunk holds both sides of the dynamic imports `start` awaits, on purpose: not a finding.
      onLog(level, log, handler) {
        if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
      },
      output: {
        entryFileNames: '[name].js',
        chunkFileNames: `${mode}/[name].js`,
        codeSplitting: {
          groups: [
            {
              name: 'start',
              test: (id: string) => FIRST_RENDER.test(id) && !AFTER_RENDER.test(id),
              priority: 2,
            },
          ],
        },
      },
    },
  },
}));
