// bench:citations — every sentence of the ten corpus PDFs labelled as an answer would cite it,
// each pinpoint checked against its family's numbering grammar (bench/lib/pinpoint-grammar.ts):
// the CFR's (a) → (1) → (i) → (A) → (1) → (i), the EU's paragraph → (a) → (i), Italian lettere,
// NIST's numbered requirements and sections, and the lists of documents of no known family; the
// first marker must open a line of the provision. Goal: 0 breaks. "cut" counts sentences whose
// tracked pinpoint the runtime cut back to its grammar (printed at a level that exists). Then the hand-checked sample
// (test/corpus/pinpoint-sample.json): each sentence's pinpoint read off the PDF; goal 100 %.
// Usage: npm run bench:citations -- [--verbose]
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createLanguageResources } from "../core/answer/language-resources.ts";
import { parseDocument } from "../core/ingest/parse-document.ts";
import { sectionDocument } from "../core/structure/section-document.ts";
import { REGULATORY_DIR } from "./lib/compare-library.ts";
import { provisionLabel } from "../core/structure/part-label.ts";
import { checkDocument, documentUnits } from "./lib/pinpoint-grammar.ts";

const { values } = parseArgs({ options: { verbose: { type: "boolean", default: false } } });
const resources = createLanguageResources();
const SAMPLE = path.resolve(import.meta.dirname, "../test/corpus/pinpoint-sample.json");

interface SampleEntry {
  file: string;
  label: string;
  /** The sentence's opening words, as printed. */
  sentence: string;
  /** The pinpoint read off the PDF (null: the provision alone is the right citation). */
  pinpoint: string | null;
}

const sample = JSON.parse(readFileSync(SAMPLE, "utf8")) as { entries: SampleEntry[] };
let breaks = 0;
let cut = 0;
let pinned = 0;
let right = 0;
let checked = 0;
console.log("document                                      family  sentences  pinned  distinct  breaks  cut");
// The ten PDFs, then the procurement code as text: Italian articolo → comma → lettera at length.
const CODE = path.resolve(REGULATORY_DIR, "../text/it_dlgs_36-2023_codice_contratti_pubblici.txt");
const files = [
  ...readdirSync(REGULATORY_DIR)
    .filter((f) => f.endsWith(".pdf"))
    .sort()
    .map((f) => path.join(REGULATORY_DIR, f)),
  CODE,
];
for (const full of files) {
  const file = path.basename(full);
  const sections = sectionDocument(await parseDocument(full), file);
  const units = await documentUnits(sections, resources);
  for (const report of checkDocument(units).filter((r) => r.sentences > 0)) {
    breaks += report.breaks.length;
    cut += report.cut;
    pinned += report.distinct;
    console.log(
      `${file.slice(0, 45).padEnd(46)}${report.family.padEnd(8)}${String(report.sentences).padStart(9)}${String(report.pinned).padStart(8)}${String(report.distinct).padStart(10)}${String(report.breaks.length).padStart(8)}${String(report.cut).padStart(5)}`,
    );
    for (const b of values.verbose ? report.breaks : report.breaks.slice(0, 3)) console.log(`    break: ${b.label}${b.pinpoint} — ${b.sentence}`);
  }
  for (const entry of sample.entries.filter((e) => e.file === file)) {
    checked++;
    let got: string | null | undefined;
    for (const [section, list] of units) {
      if (provisionLabel(section.label) !== entry.label) continue;
      const unit = list.find((u) => u.text.startsWith(entry.sentence));
      if (unit !== undefined) {
        got = unit.citable;
        break;
      }
    }
    if (got === entry.pinpoint) right++;
    else
      console.log(
        `    sample: ${entry.label} "${entry.sentence.slice(0, 50)}…" expected ${entry.pinpoint ?? "(provision)"}, got ${got === undefined ? "no such sentence" : (got ?? "(provision)")}`,
      );
  }
}
console.log(`\ndistinct pinpoints ${pinned}, grammar breaks ${breaks} (goal 0); cut back to the grammar before print ${cut}`);
console.log(`hand-checked sample: ${right}/${checked} = ${checked === 0 ? "n/a" : ((100 * right) / checked).toFixed(1)} % (goal 100 %)`);
process.exitCode = breaks === 0 && right === checked ? 0 : 1;
