// The floors of the code base, bottom to top, and what each may import: the one table the lint rule
// (import-layers-rule.mjs) and the cycle check (import-cycles.mjs) read. A folder lists the floors
// it may import by name; only floors below it can be listed (checkLayerTable fails otherwise), so
// no two folders can ever import each other. Relative imports are resolved to the file they name,
// so `../../electron/main.ts` is caught as surely as `electron`.
//
// Why this order (the import pipeline, then what serves a question, then what starts the engine):
// - text: words, stop words, stemmers and similarity, shared by search, answers and crosswalks.
// - model: the records and wire schemas everyone shares (plain data, zod, no Node): the renderer
//   compiles it too. files (owner-only files, JSON lines, settings.json) and jobs (progress,
//   the write queue) are utilities the stages use.
// - citations: how provisions, paragraphs and pages are named (answers, graph answers, crosswalks
//   and workpapers all cite).
// - A floor with a front door (its index.ts) is reached through it only.
// - ingest → structure → extract → names → graph: reading a file, its sections, what the text
//   says (citations, terms, obligations), the instruments named, the document's graph.
// - embed, llm: vectors and local language models (run by the stages above them).
// - store: the Kuzu library (it reads names for a migration); retrieve: search over it.
// - llm-extract: the LLM triplet job (a model, the graph, the store).
// - answer → compare, graph-query, export: what a question or a comparison produces.
// - pipeline: the import pipeline (check, read and hash once, parse, sections, graph, vectors,
//   source copy, store), shared by the engine and the benches: the stages of an import, below
//   what starts it.
// - usecases: ask, search, import, delete, repair, each a module over the stages.
// - engine (core/engine.ts): createEngine wires every stage and each use case once. contract: the IPC contract (model only, so
//   the renderer can compile it); host: processes that run an engine; cli: the command line.
// - electron/ and renderer/ reach core only through the contract, the model, and (electron's
//   engine process) the host.

/** Every floor below the engine, bottom to top: what the engine and the CLI may import. */
const STAGES = [
  "text",
  "model",
  "files",
  "jobs",
  "ingest",
  "structure",
  "citations",
  "extract",
  "names",
  "graph",
  "embed",
  "llm",
  "store",
  "retrieve",
  "llm-extract",
  "answer",
  "compare",
  "graph-query",
  "export",
  "pipeline",
];

/** @type {ReadonlyArray<{ name: string; paths: string[]; allow: string[]; noNode?: boolean; frontDoor?: string; note: string }>} */
export const LAYERS = [
  {
    name: "text",
    paths: ["core/text/"],
    allow: [],
    noNode: true,
    frontDoor: "core/text/index.ts",
    note: "words, stop words, stemmers, similarity",
  },
  { name: "model", paths: ["core/model/"], allow: [], noNode: true, note: "shared records and wire schemas" },
  { name: "files", paths: ["core/files/"], allow: ["text", "model"], note: "owner-only files, JSON lines, settings" },
  { name: "jobs", paths: ["core/jobs/"], allow: ["text", "model"], note: "progress reporting, the write queue" },
  { name: "ingest", paths: ["core/ingest/"], allow: ["text", "model", "files"], note: "reading files (bounded child, OCR)" },
  { name: "structure", paths: ["core/structure/"], allow: ["text", "model", "ingest"], note: "sections" },
  {
    name: "citations",
    paths: ["core/citations/"],
    allow: ["text", "model", "structure"],
    frontDoor: "core/citations/index.ts",
    note: "citation labels, pages and pinpoints",
  },
  { name: "extract", paths: ["core/extract/"], allow: ["text", "model", "structure"], note: "citations, terms, obligations" },
  { name: "names", paths: ["core/names/"], allow: ["text", "model", "structure", "extract"], note: "instrument names, aliases" },
  { name: "graph", paths: ["core/graph/"], allow: ["text", "model", "structure", "extract", "names"], note: "a document's derived graph" },
  { name: "embed", paths: ["core/embed/"], allow: ["text", "model", "files", "structure"], note: "embedders" },
  { name: "llm", paths: ["core/llm/"], allow: ["text", "model", "files", "embed"], note: "local language models" },
  { name: "store", paths: ["core/store/"], allow: ["text", "model", "files", "ingest", "structure", "names"], note: "the Kuzu library" },
  { name: "retrieve", paths: ["core/retrieve/"], allow: ["text", "model", "structure", "extract", "names", "embed", "store"], note: "hybrid search" },
  {
    name: "llm-extract",
    paths: ["core/llm-extract/"],
    allow: ["text", "model", "jobs", "structure", "extract", "graph", "embed", "llm", "store"],
    note: "LLM triplet extraction",
  },
  {
    name: "answer",
    paths: ["core/answer/"],
    frontDoor: "core/answer/index.ts",
    allow: ["citations", "text", "model", "files", "structure", "extract", "names", "embed", "llm", "store", "retrieve"],
    note: "answers: question/, compose/, history/ (answer log, conversations)",
  },
  {
    name: "compare",
    paths: ["core/compare/"],
    allow: ["citations", "text", "model", "files", "jobs", "structure", "extract", "names", "graph", "embed", "llm", "store", "retrieve", "answer"],
    note: "crosswalks between documents",
  },
  {
    name: "graph-query",
    paths: ["core/graph-query/"],
    allow: ["citations", "text", "model", "files", "extract", "names", "llm", "store", "retrieve", "answer"],
    note: "questions the graph answers",
  },
  { name: "export", paths: ["core/export/"], allow: ["citations", "text", "model", "files", "store", "answer"], note: "audit workpapers" },
  {
    name: "pipeline",
    paths: ["core/pipeline/"],
    allow: ["text", "model", "files", "jobs", "ingest", "structure", "extract", "names", "graph", "embed", "store"],
    note: "the import pipeline the engine and the benches share",
  },
  {
    name: "usecases",
    paths: ["core/usecases/"],
    frontDoor: "core/usecases/index.ts",
    allow: [...STAGES],
    note: "ask, search, import, delete, repair: what the engine, the CLI and the benches call",
  },
  {
    name: "engine",
    paths: ["core/engine.ts"],
    allow: [...STAGES, "usecases"],
    note: "createEngine: wires the stages",
  },
  { name: "contract", paths: ["core/contract/"], allow: ["model"], noNode: true, note: "the IPC contract and its dispatch" },
  { name: "host", paths: ["core/host/"], allow: ["model", "files", "engine", "contract"], note: "web host, the engine process's host" },
  {
    name: "cli",
    paths: ["core/cli/"],
    allow: [...STAGES, "usecases", "engine", "contract", "host"],
    note: "the command line",
  },
  { name: "electron", paths: ["electron/"], allow: ["model", "contract", "host"], note: "main and preload (thin)" },
  { name: "renderer", paths: ["renderer/"], allow: ["model", "contract"], noNode: true, note: "the React UI" },
];

/**
 * The application's trees: every file in them must sit in a floor of the table. A place the
 * table does not know (a new core/x.ts, a new folder of core/) is denied until it is given a
 * floor, not allowed by default.
 */
export const APP_ROOTS = ["core/", "electron/", "renderer/"];

/** Whether a project-relative path is in the application's trees but in no floor of the table. */
export function unplaced(relativePath) {
  return APP_ROOTS.some((root) => relativePath.startsWith(root)) && layerOf(relativePath) === null;
}

/** Folders outside the table (bench/, test/, models/, scripts/) may import anything; nothing in the table may import them. */
export const UNRESTRICTED = ["bench/", "test/", "models/", "scripts/", "bin/"];

/** Packages only one place may import: every Kuzu call goes through the store's driver module. */
export const PACKAGE_OWNERS = [
  { name: "kuzu", owners: ["core/store/kuzu/driver.ts"], why: "every Kuzu call goes through the store's driver (core/store/kuzu/driver.ts)" },
];

/** The layer a project-relative path (forward slashes) belongs to, or null. Longest matching prefix wins. */
export function layerOf(relativePath) {
  let best = null;
  let bestLength = -1;
  for (const layer of LAYERS) {
    for (const p of layer.paths) {
      const matches = p.endsWith("/") ? relativePath.startsWith(p) : relativePath === p;
      if (matches && p.length > bestLength) {
        best = layer;
        bestLength = p.length;
      }
    }
  }
  return best;
}

/** Problems with the table itself: a floor allowing one that is not below it, or an unknown name. */
export function checkLayerTable() {
  const problems = [];
  const index = new Map(LAYERS.map((l, i) => [l.name, i]));
  for (const [i, layer] of LAYERS.entries()) {
    for (const name of layer.allow) {
      const j = index.get(name);
      if (j === undefined) problems.push(`${layer.name} allows unknown layer ${name}`);
      else if (j >= i) problems.push(`${layer.name} allows ${name}, which is not below it`);
    }
  }
  return problems;
}
