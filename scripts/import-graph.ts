// The import graph of a source tree and its circles, shared by the shape checks (server-shape.ts for server/src,
// sdk-shape.ts for src/).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

// Static imports and re-exports (`import … from './x.js'`, `export … from`), and `import('./x.js')`. Type-only
// imports count too: a circle of types is still two concepts that cannot be read apart.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The files of `files` each file imports (absolute paths). */
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
