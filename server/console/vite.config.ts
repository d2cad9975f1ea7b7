// The browser console (/admin): a lit app built into server/dist/console, served by the server with a strict
// CSP (routes/console.ts). Nothing inline: no module-preload polyfill script, styles in lit's constructable
// stylesheets, so the page needs no 'unsafe-inline'.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/admin/',
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  resolve: {
    conditions: ['browser', 'production'],
    // The protocol's types and constants from the source: the console builds before the SDK's dist/lib exists.
    alias: { 'feature-ts/protocol': here('../../src/protocol/index.ts') },
  },
  build: {
    outDir: here('../dist/console'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    modulePreload: false,
    assetsInlineLimit: 0,
  },
});
