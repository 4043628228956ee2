#!/usr/bin/env node
// `node scripts/lint/import-cycles.mjs [dir…]` (run by `npm run lint`): the import graph of the
// TypeScript sources under the given folders (default core/), read with the TypeScript compiler's
// own pre-processor (imports, re-exports, `import type`, dynamic `import()`), and every cycle in
// it — between files, and between folders (a folder is core/<name>/ with everything under it; the
// files directly in core/ are one group). Exits 1 when there is one. Independent of the layer
// table (layers.mjs) on purpose: it reads what the code does, not what the table says.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts") && !name.endsWith(".d.mts")) out.push(full);
  }
  return out;
}

/** File → the project files it imports (relative specifiers only), paths relative to `root`. */
export function importGraph(root, dirs = ["core"]) {
  const files = dirs.flatMap((d) => sourceFiles(path.join(root, d))).map((f) => path.relative(root, f).split(path.sep).join("/"));
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(path.join(root, file), "utf8"), true, true);
    const targets = new Set();
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith(".")) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), ref.fileName));
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Strongly connected components with more than one member (or a self-import): each is a cycle. */
export function cycles(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const indexOf = new Map();
  const low = new Map();
  const found = [];
  const visit = (v) => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indexOf.has(v)) visit(v);
  return found;
}

/** core/<name>/… → "core/<name>"; files directly in core/ → "core/*.ts". */
export function folderOf(file) {
  const parts = file.split("/");
  return parts.length <= 2 ? `${parts[0]}/*.ts` : `${parts[0]}/${parts[1]}`;
}

/** The folder graph: one edge per pair of folders some file of the first imports a file of the second from. */
export function folderGraph(graph) {
  const folders = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const set = folders.get(from) ?? new Set();
    for (const t of targets) if (folderOf(t) !== from) set.add(folderOf(t));
    folders.set(from, set);
  }
  return new Map([...folders].map(([k, v]) => [k, [...v].sort()]));
}

/** One example edge per step of a folder cycle, for the message. */
function witnesses(graph, component) {
  const members = new Set(component);
  const lines = [];
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!members.has(from)) continue;
    for (const t of targets) if (members.has(folderOf(t)) && folderOf(t) !== from) lines.push(`${file} → ${t}`);
  }
  return lines;
}

export function checkImportCycles(root, dirs = ["core"]) {
  const graph = importGraph(root, dirs);
  const fileCycles = cycles(graph);
  const folderCycles = cycles(folderGraph(graph));
  const report = [
    ...fileCycles.map((c) => `file cycle: ${c.join(" ⇄ ")}`),
    ...folderCycles.map((c) => `folder cycle: ${c.join(" ⇄ ")}\n  ${witnesses(graph, c).join("\n  ")}`),
  ];
  return { files: graph.size, fileCycles, folderCycles, report };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const dirs = process.argv.slice(2);
  const result = checkImportCycles(root, dirs.length > 0 ? dirs : ["core"]);
  if (result.report.length > 0) {
    console.error(result.report.join("\n"));
    process.exit(1);
  }
  console.log(`import cycles: none among ${result.files} files (${dirs.length > 0 ? dirs.join(", ") : "core"})`);
}
