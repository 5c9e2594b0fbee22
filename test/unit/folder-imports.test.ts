// The folders of the engine import each other one way only: no folder reaches, through any chain of
// imports, a folder that imports it back. A folder is one of src/ (its own files together are `src-root`; a kind's
// contract, workflow, activities and edge files are parts of their own), contracts/, activities/ or workflows/; every import counts, type-only ones included,
// as TypeScript reads them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TREES = ['src', 'contracts', 'activities', 'workflows'];

/** The relative modules a file names: import and export … from (type-only too), import(), import('…') types. */
function modulesNamed(source: string): string[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((file) => file.fileName)
    .filter((name) => name.startsWith('.'));
}

/** The worker's two lists of every kind (the bundle's entry and the activities): each a part of its own, as src/main.ts is. */
const ENTRIES = ['workflows/index.ts', 'activities/index.ts'];

/**
 * The files of a kind's folder that are layers of their own, as eslint.config.js sees them: its contract (the layer
 * that workflow code and other kinds read), its workflow code, its activities and its edge (routes, CLI, kind.ts).
 */
const KIND_LAYERS: Array<[string, RegExp]> = [
  ['contract', /^(?:[\w-]+\.)?contract\.ts$/],
  ['workflow', /^(?:[\w-]+\.)?workflow\.ts$/],
  ['activities', /^activities\.ts$/],
  ['edge', /^(?:routes|admin-routes|simulator-routes|cli|kind)\.ts$/],
];

/** `src/charges/create.ts` → charges; `src/charges/contract.ts` → charges/contract; `src/main.ts` → src-root; `workflows/outgoing.ts` → workflows. */
function folderOf(path: string): string {
  if (ENTRIES.includes(path)) return path;
  const [top, second, third] = path.split('/');
  if (top !== 'src') return top!;
  if (third === undefined) return 'src-root';
  const layer = KIND_LAYERS.find(([, name]) => name.test(third));
  return layer ? `${second}/${layer[0]}` : second!;
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** One import between two folders: the edge, and the file import that makes it. */
type FolderImport = { from: string; to: string; file: string; target: string };

function treeImports(): FolderImport[] {
  return TREES.flatMap(filesUnder).flatMap((file) =>
    modulesNamed(readFileSync(join(ROOT, file), 'utf8')).map((name) => {
      const target = relative(ROOT, resolve(ROOT, dirname(file), name)).replace(/\.js$/, '.ts');
      return { from: folderOf(file), to: folderOf(target), file, target };
    }),
  );
}

type Graph = Map<string, Set<string>>;

function graphOf(imports: Array<Pick<FolderImport, 'from' | 'to'>>): Graph {
  const graph: Graph = new Map();
  for (const { from, to } of imports) {
    if (from === to) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    if (!graph.has(to)) graph.set(to, new Set());
    graph.get(from)!.add(to);
  }
  return graph;
}

/** The strongly connected parts of more than one folder (Tarjan): each holds at least one cycle. */
function tangles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      part.push(member);
    } while (member !== node);
    if (part.length > 1) found.push(part.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One cycle of each tangle, shortest through its first folder: `['a', 'b', 'a']`. */
function folderCycles(graph: Graph): string[][] {
  return tangles(graph).map((part) => {
    const [start] = part;
    const inPart = new Set(part);
    const cameFrom = new Map<string, string>();
    const queue = [start!];
    for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
      for (const next of graph.get(at) ?? []) {
        if (!inPart.has(next)) continue;
        if (next === start) {
          const cycle = [at];
          while (cycle[0] !== start) cycle.unshift(cameFrom.get(cycle[0]!)!);
          return [...cycle, start];
        }
        if (!cameFrom.has(next)) {
          cameFrom.set(next, at);
          queue.push(next);
        }
      }
    }
    throw new Error(`no cycle through ${start} in ${part.join(', ')}`);
  });
}

describe('folder imports', () => {
  it('reads every kind of import TypeScript knows, type-only and dynamic ones included', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '../b/b.js';",
      "export { c } from './c.js';",
      "export type { D } from './d.js';",
      "import './e.js';",
      "const f = await import('./f.js');",
      "type G = import('./g.js').G;",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(modulesNamed(source)).toEqual(['./a.js', '../b/b.js', './c.js', './d.js', './e.js', './f.js', './g.js']);
  });

  it('finds a cycle of folders, and each of two separate ones, and none in a graph without', () => {
    const edges = (...pairs: string[]) => pairs.map((pair) => ({ from: pair[0]!, to: pair[1]! }));
    expect(folderCycles(graphOf(edges('ab', 'bc', 'ca', 'da')))).toEqual([['a', 'b', 'c', 'a']]);
    expect(folderCycles(graphOf(edges('ab', 'ba', 'cd', 'de', 'ec', 'ac')))).toEqual([
      ['a', 'b', 'a'],
      ['c', 'd', 'e', 'c'],
    ]);
    expect(folderCycles(graphOf(edges('ab', 'bc', 'ac', 'dc')))).toEqual([]);
  });

  it('has no cycle between the folders of src/, contracts/, activities/ and workflows/', () => {
    const kept = treeImports();
    const named = folderCycles(graphOf(kept)).map((cycle) =>
      cycle
        .slice(1)
        .map((to, step) => {
          const from = cycle[step]!;
          const { file, target } = kept.find((i) => i.from === from && i.to === to)!;
          return `${from} -> ${to} (${file} imports ${target})`;
        })
        .join(', '),
    );
    expect(named).toEqual([]);
  });
});
