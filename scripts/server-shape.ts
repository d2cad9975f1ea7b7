// The server's shape, checked (issue 32): no import circle in server/src, no route file importing another
// route file, and the files over the line limit. `node --import tsx scripts/server-shape.ts` prints what it
// finds and exits non-zero on a circle or a route-to-route import; `--max-lines N` (default 300) sets the limit
// that is reported, and `--strict-lines` makes a file over it a failure too.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { circles, importGraph } from './import-graph.js';

const ROOT = resolve(import.meta.dirname, '..');
const SOURCE = join(ROOT, 'server', 'src');
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

const isRoute = (file: string): boolean => {
  const path = relative(SOURCE, file);
  return path.startsWith('plugins/') && !path.endsWith('-schemas.ts');
};

const files = filesUnder(SOURCE).sort();
const graph = importGraph(files);
const shown = (file: string): string => relative(ROOT, file);
let failed = false;

const found = circles(graph);
for (const circle of found) {
  failed = true;
  console.log(`import circle: ${circle.map(shown).join(' → ')}`);
}
for (const [file, targets] of graph) {
  if (!isRoute(file)) continue;
  for (const target of targets.filter(isRoute)) {
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
  `server/src: ${files.length} files, ${found.length} import circles, ${long.length} files over ${MAX_LINES} lines`,
);
if (failed) process.exitCode = 1;
