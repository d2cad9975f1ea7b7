// The budget of an application that bundles the SDK (DESIGN.md, Budgets): `import { Feature }` from the package's
// browser build, bundled by esbuild with code splitting as an app's bundler would, counting every file that
// `start()` loads in decision-API mode: the entry and each chunk reached through static or dynamic imports, except
// bucketing mode's chunk (start does not load it in decision-API mode), the live-update chunk (not loaded unless
// `withLiveUpdates(true)`), and what only they reach. Each file is counted as gzip -9 of its bytes, as a server would send it.
//   node scripts/app-bundle-size.js [--limit 22000] [--json]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * The dynamic imports `start()` does not follow in decision-API mode with the default configuration, by their
 * library chunk: bucketing mode's, and the live-update code's (loaded only with `withLiveUpdates(true)`).
 */
const NOT_AT_START = [/chunks[\\/]bucketing\.js$/, /chunks[\\/]live-updates\.js$/];

const args = process.argv.slice(2);
const limitAt = args.indexOf('--limit');
const limit = limitAt === -1 ? 22_000 : Number(args[limitAt + 1]);

const dir = mkdtempSync(join(tmpdir(), 'feature-app-bundle-'));
try {
  const entry = join(dir, 'app.js');
  const core = resolve('dist/browser/core.js');
  writeFileSync(entry, `import { Feature } from ${JSON.stringify(core)};\nglobalThis.feature = Feature;\n`);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    platform: 'browser',
    target: 'es2022',
    outdir: join(dir, 'out'),
    metafile: true,
    write: false,
    logLevel: 'error',
  });
  const outputs = result.metafile.outputs;
  const bytes = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  const key = (path) => resolve(path);
  const entryOutput = Object.keys(outputs).find((path) => outputs[path].entryPoint?.endsWith('app.js'));
  if (entryOutput === undefined) throw new Error('esbuild gave no output for the app entry');
  const loaded = new Set();
  const walk = (path) => {
    if (loaded.has(path)) return;
    const output = outputs[path];
    if (output.entryPoint !== undefined && NOT_AT_START.some((pattern) => pattern.test(output.entryPoint)))
      return;
    loaded.add(path);
    for (const next of output.imports) if (!next.external) walk(next.path);
  };
  walk(entryOutput);
  let total = 0;
  for (const path of loaded) {
    const contents = bytes.get(key(path));
    if (contents === undefined) throw new Error(`esbuild wrote no bytes for ${path}`);
    total += gzipSync(contents, { level: 9 }).length;
  }
  const kB = (n) => `${(n / 1000).toFixed(2)} kB`;
  if (args.includes('--json')) console.log(JSON.stringify({ bytes: total, files: loaded.size, limit }));
  else
    console.log(
      `app bundle (import { Feature }, esbuild splitting, what start() loads): ${kB(total)} in ${loaded.size} files, budget ${kB(limit)}`,
    );
  if (total > limit) {
    console.error(`app bundle: over budget by ${total - limit} B (DESIGN.md, Budgets)`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
