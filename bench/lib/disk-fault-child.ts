// Runs inside `unshare -rm` (a private user + mount namespace, see disk-faults.ts), where this
// process may mount: a small tmpfs stands in for a disk that fills up, a read-only bind mount for
// write-protected media. Each scenario records named checks; the caller asserts them all.
//   node bin/run-ts.mjs bench/lib/disk-fault-child.ts --root <dir> --scenario disk-full|read-only --out <file>
import { execFileSync } from "node:child_process";
import { mkdir, readdir, rm, statfs, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { createEngine, databasePath } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { toErrorInfo } from "../../core/model/errors.ts";
import { createKuzuStore } from "../../core/store/kuzu/kuzu-store.ts";

export interface DiskFaultCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface DiskFaultReport {
  scenario: string;
  checks: DiskFaultCheck[];
  /** Set when the scenario itself broke (an exception outside the checks). */
  error?: string;
}

const { values } = parseArgs({
  options: {
    root: { type: "string" },
    scenario: { type: "string" },
    out: { type: "string" },
  },
});
const root = values.root ?? "";
const out = values.out ?? "";
const scenario = values.scenario ?? "";
if (root === "" || out === "" || (scenario !== "disk-full" && scenario !== "read-only")) {
  console.error("usage: disk-fault-child.ts --root <dir> --scenario disk-full|read-only --out <file>");
  process.exit(2);
}

const MB = 2 ** 20;
// The tmpfs is small so it fills in a moment; the margin the store keeps is scaled down with it.
const DISK_BYTES = 64 * MB;
const MIN_FREE = 16 * MB;

const report: DiskFaultReport = { scenario, checks: [] };
function check(name: string, ok: boolean, detail: unknown): void {
  report.checks.push({ name, ok, detail: typeof detail === "string" ? detail : JSON.stringify(detail) });
}

/** One article a page, EU style: bold "Article N", bold heading, body lines. */
async function articlesPdf(articles: Array<{ heading: string; body: string[] }>): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  articles.forEach((article, i) => {
    const page = pdf.addPage([595, 842]);
    let y = 780;
    for (const [text, font] of [[`Article ${i + 1}`, bold], [article.heading, bold], ...article.body.map((line) => [line, regular] as const)] as const) {
      page.drawText(text, { x: 60, y, size: 10, font });
      y -= 16;
    }
  });
  return pdf.save();
}

async function fixtures(): Promise<{ first: string; second: string }> {
  const inputs = path.join(root, "inputs");
  await mkdir(inputs, { recursive: true });
  const first = path.join(inputs, "records.pdf");
  const second = path.join(inputs, "incidents.pdf");
  await writeFile(first, await articlesPdf([{ heading: "Records", body: ["Operators shall keep records of every access for five years."] }]));
  // Big enough that storing it needs real room in the database.
  const articles = Array.from({ length: 30 }, (_, p) => ({
    heading: `Incident class ${p + 1}`,
    body: Array.from({ length: 28 }, (_, i) => `Operators shall report incident ${p + 1}.${i + 1} to the authority within 24 hours and keep a log of it.`),
  }));
  await writeFile(second, await articlesPdf(articles));
  return { first, second };
}

function open(dataDir: string): Promise<Engine> {
  // No embedder: the default model would be built into the data folder and fill the small disk.
  const store = createKuzuStore({ dbPath: databasePath(dataDir), minFreeBytes: MIN_FREE });
  return createEngine({ dataDir, embedder: null, llm: null, store });
}

async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
}

/** Fills the disk until `leave` bytes are free (0: completely). */
async function fill(dir: string, name: string, leave: number): Promise<void> {
  const target = path.join(dir, name);
  const want = Math.max(0, (await freeBytes(dir)) - leave);
  try {
    execFileSync("dd", ["if=/dev/zero", `of=${target}`, "bs=64k", `count=${Math.ceil(want / 65536)}`], { stdio: "ignore" });
  } catch {
    // dd stops with ENOSPC when asked for everything: that is the point.
  }
  if (leave > 0) {
    // dd rounds up to whole blocks; trim back to the wanted figure.
    execFileSync("truncate", ["-s", String(want), target]);
  }
}

async function state(engine: Engine): Promise<string> {
  const stats = await engine.stats();
  const docs = (await engine.listDocuments()).map((d) => d.fileName).sort();
  return JSON.stringify({ docs, sections: stats.sections, triplets: stats.triplets, references: stats.crossReferences });
}

async function sourceFiles(dataDir: string): Promise<string[]> {
  return (await readdir(path.join(dataDir, "sources"), { recursive: true }).catch(() => []))
    .map(String)
    .filter((f) => f.endsWith(".pdf"))
    .sort();
}

async function diskFull(): Promise<void> {
  const { first, second } = await fixtures();
  const mnt = path.join(root, "disk");
  await mkdir(mnt, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${DISK_BYTES}`, "tmpfs", mnt]);
  const dataDir = path.join(mnt, "library");
  let engine = await open(dataDir);
  const [a] = await engine.importFiles([first]);
  check("first import on a roomy disk", a?.status === "ok", a?.error ?? "ok");
  const before = await state(engine);
  const sourcesBefore = await sourceFiles(dataDir);

  // Below the margin but with room for the source copy: the store refuses before Kuzu writes.
  await fill(mnt, "filler-1", 8 * MB);
  const [b] = await engine.importFiles([second]);
  check(
    "import with 8 MB free → WRITE_FAILED (almost full)",
    b?.status === "error" && b.error?.code === "WRITE_FAILED" && /almost full/.test(b.error.message),
    b?.error ?? b?.status ?? "no result",
  );
  check("…the error names the document", b?.file === second && (b.error?.message ?? "").includes("incidents.pdf"), b?.error?.message ?? "");
  check("…the library is unchanged", (await state(engine)) === before, await state(engine));
  check("…no stray source copy is left", JSON.stringify(await sourceFiles(dataDir)) === JSON.stringify(sourcesBefore), await sourceFiles(dataDir));
  const deleted = await engine.deleteDocument(first).then(
    () => "deleted",
    (err: unknown) => toErrorInfo(err).code,
  );
  check("delete on a nearly full disk → WRITE_FAILED, document kept", deleted === "WRITE_FAILED" && (await state(engine)) === before, deleted);

  // Completely full: the source copy is the first write to fail.
  await fill(mnt, "filler-2", 0);
  const [c] = await engine.importFiles([second]);
  check(
    "import on a full disk → WRITE_FAILED (disk is full)",
    c?.status === "error" && c.error?.code === "WRITE_FAILED" && /full/.test(c.error.message),
    c?.error ?? c?.status ?? "no result",
  );
  check("…the library is unchanged", (await state(engine)) === before, await state(engine));
  const hits = await engine.search("records of every access");
  check("search still answers on a full disk", hits.results.length > 0, `${hits.results.length} results`);
  const answer = await engine.ask("How long shall operators keep records of every access?");
  check("ask still answers on a full disk", answer.citations.length > 0, answer.answer.slice(0, 120));

  // Space comes back: the same import goes through, and the library reopens whole.
  await rm(path.join(mnt, "filler-1"));
  await rm(path.join(mnt, "filler-2"));
  const [d] = await engine.importFiles([second]);
  check("import after space is freed", d?.status === "ok", d?.error ?? "ok");
  const after = await state(engine);
  await engine.close();
  engine = await open(dataDir);
  check(
    "the library reopens with both documents",
    (await state(engine)) === after && after.includes("incidents.pdf") && after.includes("records.pdf"),
    await state(engine),
  );
  check(
    "…and searches the new one",
    (await engine.search("report incident authority")).results.some((r) => r.file.endsWith("incidents.pdf")),
    "",
  );
  await engine.close();
}

/**
 * Unmounts the read-only bind mount. A file the closed engine held there can take a moment to be
 * released on a busy machine ("target is busy"): tried again for a while, then detached lazily,
 * which frees the path at once and the mount when its last user is gone.
 */
async function unmount(mountPoint: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      execFileSync("umount", [mountPoint], { stdio: ["ignore", "ignore", "pipe"] });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250 * (attempt + 1)));
    }
  }
  execFileSync("umount", ["-l", mountPoint]);
}

async function readOnly(): Promise<void> {
  const { first, second } = await fixtures();
  const media = path.join(root, "media");
  const dataDir = path.join(media, "library");
  let engine = await open(dataDir);
  const [a] = await engine.importFiles([first]);
  check("import on a writable disk", a?.status === "ok", a?.error ?? "ok");
  const before = await state(engine);
  await engine.close();

  execFileSync("mount", ["--bind", media, media]);
  execFileSync("mount", ["-o", "remount,bind,ro", media]);
  engine = await open(dataDir);
  check("a library on a read-only disk opens (for reading)", (await state(engine)) === before, await state(engine));
  const hits = await engine.search("records of every access");
  check("…search works", hits.results.length > 0, `${hits.results.length} results`);
  const answer = await engine.ask("How long shall operators keep records of every access?");
  check(
    "…ask works and cites the document",
    answer.citations.some((c) => c.file.endsWith("records.pdf")),
    answer.answer.slice(0, 120),
  );
  const [b] = await engine.importFiles([second]);
  check(
    "…import → WRITE_FAILED saying read-only",
    b?.status === "error" && b.error?.code === "WRITE_FAILED" && /read-only/i.test(b.error.message),
    b?.error ?? b?.status ?? "no result",
  );
  const deleted = await engine.deleteDocument(first).then(
    () => "deleted",
    (err: unknown) => `${toErrorInfo(err).code} ${toErrorInfo(err).message}`,
  );
  check("…delete → WRITE_FAILED saying read-only", /^WRITE_FAILED .*read-only/.test(deleted), deleted);
  check("…the library is unchanged", (await state(engine)) === before, await state(engine));
  await engine.close();

  await unmount(media);
  engine = await open(dataDir);
  check("writable again: the library is intact", (await state(engine)) === before, await state(engine));
  const [c] = await engine.importFiles([second]);
  check("…and takes the import", c?.status === "ok", c?.error ?? "ok");
  await engine.close();
}

try {
  if (scenario === "disk-full") await diskFull();
  else await readOnly();
} catch (err) {
  report.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
}
await writeFile(out, JSON.stringify(report, null, 2));
