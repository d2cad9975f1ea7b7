// Browser bundles (ES modules). Node code is compiled by tsc (`tsc -b tsconfig.build.json` → dist/lib), so
// Node loads plain modules with no bundler in between; vite only builds what browsers download.
import { defineConfig, type Plugin } from 'vite';

/**
 * Code a page loads with `import()` (the tracking manager, the IndexedDB caches, bucketing mode, usage
 * statistics) goes under `lazy/`, which the entry's size budget leaves out (.size-limit.json `ignore`). A
 * chunk holding any module an entry reaches through static imports goes under `chunks/` instead, so it is
 * measured with the entry. The plugin finds those modules once the graph is built, and fails the build if
 * an entry still reaches something under `lazy/` statically.
 */
const lazyChunks = () => {
  const staticModules = new Set<string>();
  const lazyModules = new Set<string>();
  const plugin: Plugin = {
    name: 'lazy-chunks',
    buildEnd() {
      const reach = (found: Set<string>, id: string, throughEntries: boolean): void => {
        if (found.has(id)) return;
        const info = this.getModuleInfo(id);
        // A lazy chunk that imports an entry (the elements' hit builders import core's public entry) uses the
        // entry's own file: the entry's modules do not become shared with it.
        if (!throughEntries && info?.isEntry === true) return;
        found.add(id);
        for (const next of info?.importedIds ?? []) reach(found, next, throughEntries);
      };
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        if (info?.isEntry) reach(staticModules, id, true);
        for (const target of info?.dynamicallyImportedIds ?? []) reach(lazyModules, target, false);
      }
    },
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])),
      );
      // Modules shared by an entry and a lazy chunk get one chunk each (sharedModuleChunk); the modules only
      // entries share (core, under the elements) may travel together.
      for (const chunk of chunks.values()) {
        const ids = Object.keys(chunk.modules);
        if (chunk.fileName.startsWith('chunks/') && ids.length > 1 && ids.some((id) => lazyModules.has(id)))
          this.error(`${chunk.fileName} holds ${ids.join(', ')}: one module per chunk.`);
      }
      for (const entry of chunks.values()) {
        if (!entry.isEntry) continue;
        const seen = new Set<string>();
        const walk = (fileName: string): void => {
          if (seen.has(fileName)) return;
          seen.add(fileName);
          if (fileName.startsWith('lazy/'))
            this.error(`${entry.fileName} imports ${fileName} statically: code under lazy/ must be dynamic.`);
          for (const next of chunks.get(fileName)?.imports ?? []) walk(next);
        };
        walk(entry.fileName);
      }
    },
  };
  const chunkFileNames = (chunk: { moduleIds: string[] }): string =>
    chunk.moduleIds.some((id) => staticModules.has(id)) ? 'chunks/[name].js' : 'lazy/[name].js';
  /**
   * A module both an entry and a lazy chunk import gets a chunk of its own. Bundled together, such modules make
   * one file that an application's bundler can only place whole: the entry's `CONSENT_ACTION` would pull the
   * hit classes the tracking chunk shares the file with onto the page's first download.
   */
  const sharedModuleChunk = (id: string): string | null =>
    staticModules.has(id) && lazyModules.has(id)
      ? id
          .replace(/^.*?\/(src|node_modules)\//, '')
          .replace(/\.[jt]s$/, '')
          .replace(/[\\/]/g, '-')
      : null;
  return { plugin, chunkFileNames, sharedModuleChunk };
};

const lazy = lazyChunks();

export default defineConfig({
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  plugins: [lazy.plugin],
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
        chunkFileNames: lazy.chunkFileNames,
        // A group takes its modules' dependencies along, so dependencies get their chunks first: protocol, then
        // engine, then core (the build fails if a chunks/ file ever holds two modules).
        codeSplitting: {
          groups: [/[\\/]src[\\/]protocol[\\/]/, /[\\/]src[\\/]engine[\\/]/, /./].map((test, i) => ({
            name: lazy.sharedModuleChunk,
            debugName: ['protocol', 'engine', 'other'][i] ?? 'other',
            test,
            priority: 3 - i,
          })),
        },
      },
    },
  },
});
