// Browser bundles (ES modules). Node code is compiled by tsc (`tsc -b tsconfig.build.json` → dist/lib), so
// Node loads plain modules with no bundler in between; vite only builds what browsers download.
import { defineConfig } from 'vite';

export default defineConfig({
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist/browser',
    emptyOutDir: true,
    target: 'es2022',
    minify: 'esbuild',
    sourcemap: true,
    lib: {
      entry: { core: 'src/core/index.ts' },
      formats: ['es'],
    },
    rolldownOptions: {
      output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
