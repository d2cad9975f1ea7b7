// The server's shape, checked (issue 32): no import circle in server/src, no route file importing another
// route file, and the files over the line limit. `node --import tsx scripts/server-shape.ts` prints what it
// finds and exits non-zero on a circle or a route-to-route import; `--max-lines N` (default 300) sets the limit
// that is reported, and `--strict-lines` makes a file over it a failure too.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

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

// Static imports and re-exports (`import … from './x.js'`, `export … from`), and `import('./x.js')`. Type-only
// imports count too: a circle of types is still two concepts that cannot be read apart.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The server files each file imports, by path relative to server/src. */
export const importGraph = (files: readonly string[]): Map<string, string[]> => {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts'));
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
};

/** The strongly connected components with more than one file (or a file importing itself): the circles. */
export const circles = (graph: ReadonlyMap<string, readonly string[]>): string[][] => {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indexOf.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, indexOf.get(next) ?? 0));
    }
    if (low.get(node) !== indexOf.get(node)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return found;
};

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
