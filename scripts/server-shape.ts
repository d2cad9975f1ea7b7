// The server package's shape, checked (issue 32): no import circle in server/src nor in the console's sources
// (server/console/src), no route file importing another route file, and the files over the line limit in both.
// The console is checked beside the server because it is the same package and the same guide (DESIGN.md: one
// concept per file, ~300 lines); each tree prints its own summary line. `node --import tsx
// scripts/server-shape.ts` prints what it finds and exits non-zero on a circle or a route-to-route import;
// `--max-lines N` (default 300) sets the limit that is reported, and `--strict-lines` makes a file over it a
// failure too.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { circles, importGraph } from './import-graph.js';

const ROOT = resolve(import.meta.dirname, '..');
const SERVER = join(ROOT, 'server', 'src');
const CONSOLE = join(ROOT, 'server', 'console', 'src');
const args = process.argv.slice(2);
const maxLinesAt = args.indexOf('--max-lines');
const MAX_LINES = maxLinesAt >= 0 ? Number(args[maxLinesAt + 1]) : 300;
const strictLines = args.includes('--strict-lines');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return path.endsWith('.ts') ? [path] : [];
  });

/** A route file of the server: one plugin per route group, its schemas apart. */
const isRoute = (file: string): boolean => {
  const path = relative(SERVER, file);
  return path.startsWith('plugins/') && !path.endsWith('-schemas.ts');
};

const shown = (file: string): string => relative(ROOT, file);

/**
 * Checks one source tree: its import circles, its route files importing route files (when `isRouteFile` says
 * which files are routes) and its files over the limit; prints them and the tree's summary line. True when the
 * tree fails.
 */
const checkTree = (dir: string, isRouteFile?: (file: string) => boolean): boolean => {
  const files = filesUnder(dir).sort();
  const graph = importGraph(files);
  let failed = false;
  const found = circles(graph);
  for (const circle of found) {
    failed = true;
    console.log(`import circle: ${circle.map(shown).join(' → ')}`);
  }
  if (isRouteFile !== undefined)
    for (const [file, targets] of graph) {
      if (!isRouteFile(file)) continue;
      for (const target of targets.filter(isRouteFile)) {
        failed = true;
        console.log(`route file importing a route file: ${shown(file)} → ${shown(target)}`);
      }
    }
  const long = files
    .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > MAX_LINES)
    .sort((a, b) => b.lines - a.lines);
  for (const { file, lines } of long) console.log(`over ${MAX_LINES} lines: ${shown(file)} (${lines})`);
  if (strictLines && long.length > 0) failed = true;
  console.log(
    `${shown(dir)}: ${files.length} files, ${found.length} import circles, ${long.length} files over ${MAX_LINES} lines`,
  );
  return failed;
};

// Both trees are checked and printed, whichever fails.
const serverFailed = checkTree(SERVER, isRoute);
const consoleFailed = checkTree(CONSOLE);
if (serverFailed || consoleFailed) process.exitCode = 1;
