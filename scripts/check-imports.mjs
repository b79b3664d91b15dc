#!/usr/bin/env node
// The shape of the import graph, checked (docs/ARCHITECTURE.md, "Rooms"): every import of src/ is read
// (static, dynamic, `import type`, re-exports, `typeof import(…)`), and the run fails, naming the files, on
// - an import cycle between files, counting runtime imports only: a type-only import is erased when the code is
//   built, so it cannot make modules load in a half-initialised order (the hazard a cycle brings); and
// - a two-way pair of rooms (folders) inside src/main/core, counting type-only imports too: a room that needs
//   another's types depends on it as much as one that calls it, and the pair is what makes a room hard to move
//   or test alone. The files at the root of core are the room "(core)".
// `node scripts/check-imports.mjs [root]` (root: src/ by default); `npm run check:imports`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];

/** Every source file under dir. */
function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names, or undefined (a package, a JSON file, a missing file). */
function resolve(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs)$/, '');
  for (const candidate of [base, ...EXTENSIONS.map((e) => stem + e), ...EXTENSIONS.map((e) => path.join(base, 'index' + e))]) {
    if (/\.(ts|tsx|mts|js|mjs)$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** True when an import or export declaration is erased by the build (`import type`, or every name `type`). */
function typeOnly(node) {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return false; // `import './x'`: for its effects.
    if (clause.isTypeOnly) return true;
    if (clause.name) return false;
    const bindings = clause.namedBindings;
    return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
  }
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
  }
  return false;
}

/** Every import of one file: { specifier, typeOnly }. */
export function importsOf(file, text = fs.readFileSync(file, 'utf8')) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: typeOnly(node) });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) found.push({ specifier: expression.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push({ specifier: argument.text, typeOnly: false });
    } else if (ts.isImportTypeNode(node)) {
      const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      if (literal && ts.isStringLiteral(literal)) found.push({ specifier: literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The graph of src/: file -> [{ to, typeOnly }], relative imports that name a file only. */
export function importGraph(root) {
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const edges = [];
    for (const { specifier, typeOnly: erased } of importsOf(file)) {
      const to = resolve(file, specifier);
      if (to) edges.push({ to, typeOnly: erased });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** The cycles of runtime imports: each a strongly connected component of two files or more (or a file importing itself). */
export function importCycles(graph) {
  // Tarjan's algorithm, iterative (a deep chain must not overflow the stack).
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const cycles = [];
  let next = 0;
  const runtimeEdges = (file) => (graph.get(file) ?? []).filter((e) => !e.typeOnly && graph.has(e.to)).map((e) => e.to);
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [{ file: start, edges: runtimeEdges(start), at: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.at < frame.edges.length) {
        const to = frame.edges[frame.at++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, edges: runtimeEdges(to), at: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.file, Math.min(low.get(frame.file), index.get(to)));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file), low.get(frame.file)));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.file);
      if (component.length > 1 || runtimeEdges(frame.file).includes(frame.file)) cycles.push(component.sort());
    }
  }
  return cycles;
}

/** The room of a file inside core: its first folder there, "(core)" for the files at core's root; else undefined. */
export function roomOf(core, file) {
  const relative = path.relative(core, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts[0] : '(core)';
}

/** The two-way pairs of rooms in core, type-only imports included: each with one import each way, as evidence. */
export function twoWayRooms(graph, core) {
  const between = new Map(); // "a\0b" -> [from, to] (the first import seen from room a into room b)
  for (const [from, edges] of graph) {
    const a = roomOf(core, from);
    if (!a) continue;
    for (const { to } of edges) {
      const b = roomOf(core, to);
      if (!b || a === b) continue;
      const key = `${a}\0${b}`;
      if (!between.has(key)) between.set(key, [from, to]);
    }
  }
  const pairs = [];
  for (const [key, one] of between) {
    const [a, b] = key.split('\0');
    if (a < b && between.has(`${b}\0${a}`)) pairs.push({ rooms: [a, b], one, other: between.get(`${b}\0${a}`) });
  }
  return pairs.sort((x, y) => x.rooms.join().localeCompare(y.rooms.join()));
}

/** Everything wrong under root (src/ by default; core is root/main/core). */
export function checkImports(root) {
  const graph = importGraph(root);
  const core = path.join(root, 'main', 'core');
  return { files: graph.size, cycles: importCycles(graph), pairs: twoWayRooms(graph, core) };
}

const here = path.dirname(fileURLToPath(import.meta.url));
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(here, '..', 'src'));
  const { files, cycles, pairs } = checkImports(root);
  const show = (file) => path.relative(root, file).split(path.sep).join('/');
  for (const cycle of cycles) console.error(`Import cycle (runtime imports) between: ${cycle.map(show).join(', ')}`);
  for (const { rooms, one, other } of pairs) {
    console.error(
      `Rooms ${rooms[0]} and ${rooms[1]} in main/core import each other: ${show(one[0])} imports ${show(one[1])}; ` +
        `${show(other[0])} imports ${show(other[1])}`,
    );
  }
  if (cycles.length > 0 || pairs.length > 0) {
    console.error(`${cycles.length} import cycle(s), ${pairs.length} two-way pair(s) of rooms in main/core (${files} files read).`);
    process.exit(1);
  }
  console.log(`Imports: no cycle, no two-way pair of rooms in main/core (${files} files read).`);
}
