import type { ExportFile } from "../model/conversation-schemas.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import type { Section } from "../model/section-types.ts";
import { locateInSection, pageText, type CitationLocation } from "./citation-location.ts";
import type { Crosswalk, CrosswalkExportFormat, CrosswalkMatch, CrosswalkRow, PairFlag } from "../model/compare-schemas.ts";

// A crosswalk as a file an auditor files: CSV (one line per aligned pair, for a spreadsheet) or
// Markdown (the table as the Compare view shows it, then each pair's matching sentences quoted).
// Both cite each side by document, provision with paragraph, and page, from the sentence the
// pair matched on (the model's quoted sentence when there is a verdict). Built only from what is
// stored: the same comparison exports to the same bytes.

export interface ExportInput {
  crosswalk: Crosswalk;
  /** Every section the rows name, A's and the matched B's. */
  sections: ReadonlyMap<string, Section>;
  documents: ReadonlyMap<string, DocumentRecord>;
}

interface Side {
  document: string;
  location: CitationLocation;
  quote: string;
}

function quoteOf(section: Section | undefined, span: { start: number; end: number } | undefined): string {
  if (section === undefined || span === undefined) return "";
  return section.text.slice(span.start, span.end).replace(/\s+/g, " ").trim();
}

/** Both sides of a pair as cited: the verdict's quotes, else the best matching sentences, else the sections. */
function sides(input: ExportInput, row: CrosswalkRow, match: CrosswalkMatch): { a: Side; b: Side } {
  const a = input.sections.get(row.aSectionId);
  const b = input.sections.get(match.bSectionId);
  const evidence = match.evidence.sentences[0];
  const spanA = match.verdict?.quoteA ?? evidence?.a;
  const spanB = match.verdict?.quoteB ?? evidence?.b;
  const docName = (section: Section | undefined, fallback: string): string => {
    const doc = section === undefined ? undefined : input.documents.get(section.documentId);
    return doc === undefined ? fallback : doc.fileName;
  };
  const missing = (label: string, page: number): CitationLocation => ({ citation: label, paragraph: null, page, printedPage: null });
  return {
    a: {
      document: docName(a, row.aSectionId),
      location: a === undefined ? missing(row.aLabel, row.aPageStart) : locateInSection(a, spanA ?? null),
      quote: quoteOf(a, spanA),
    },
    b: {
      document: docName(b, match.bDocumentId),
      location: b === undefined ? missing(match.bLabel, match.bPageStart) : locateInSection(b, spanB ?? null),
      quote: quoteOf(b, spanB),
    },
  };
}

function flagText(flags: readonly PairFlag[]): string {
  return flags.map((f) => f.message).join("; ");
}

function verdictText(match: CrosswalkMatch): string {
  return match.verdict === undefined ? "" : `${match.verdict.label.replace("_", " ")} (${match.verdict.modelId})`;
}

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const CSV_HEADER = [
  "A document",
  "A provision",
  "A heading",
  "A citation",
  "A page",
  "rank",
  "B document",
  "B provision",
  "B heading",
  "B citation",
  "B page",
  "score",
  "similarity",
  "lexical",
  "heading",
  "citation between them",
  "shared terms",
  "shared obligation words",
  "flags",
  "verdict",
  "A sentence",
  "B sentence",
];

function toCsv(input: ExportInput): string {
  const lines = [CSV_HEADER.map(csvCell).join(",")];
  for (const row of input.crosswalk.rows) {
    if (row.matches.length === 0) {
      const a = input.sections.get(row.aSectionId);
      const location = a === undefined ? null : locateInSection(a, null);
      lines.push(
        [
          input.crosswalk.comparison.documentA.fileName,
          row.aLabel,
          row.aHeading,
          location?.citation ?? row.aLabel,
          location ? pageText(location) : "",
          "",
          "",
          "",
          "",
          "",
          "",
          0,
          "",
          "",
          "",
          "",
          "",
          "",
          "no match",
          "",
          "",
          "",
        ]
          .map(csvCell)
          .join(","),
      );
      continue;
    }
    for (const match of row.matches) {
      const { a, b } = sides(input, row, match);
      lines.push(
        [
          a.document,
          row.aLabel,
          row.aHeading,
          a.location.citation,
          pageText(a.location),
          match.rank,
          b.document,
          match.bLabel,
          match.bHeading,
          b.location.citation,
          pageText(b.location),
          match.score.toFixed(3),
          match.reasons.similarity.toFixed(3),
          match.reasons.lexical.toFixed(3),
          match.reasons.heading.toFixed(3),
          match.reasons.citation?.raw ?? "",
          match.reasons.sharedTerms.join("; "),
          match.reasons.sharedParties.join("; "),
          flagText(match.flags),
          verdictText(match),
          a.quote,
          b.quote,
        ]
          .map(csvCell)
          .join(","),
      );
    }
  }
  // The byte-order mark makes spreadsheet programs read § and accents as UTF-8.
  return `\ufeff${lines.join("\r\n")}\r\n`;
}

function mdCell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

function toMarkdown(input: ExportInput): string {
  const c = input.crosswalk.comparison;
  const docA = input.documents.get(c.documentA.id);
  const out: string[] = [];
  out.push(`# Crosswalk: ${c.documentA.title || c.documentA.fileName} ↔ ${c.documentB ? c.documentB.title || c.documentB.fileName : "the library"}`, "");
  const describe = (d: DocumentRecord | undefined, fallback: string): string => (d === undefined ? fallback : `${d.fileName} (sha256 ${d.sha256})`);
  out.push(`- A: ${describe(docA, c.documentA.fileName)}`);
  if (c.documentB) out.push(`- B: ${describe(input.documents.get(c.documentB.id), c.documentB.fileName)}`);
  else out.push(`- B: the library — ${c.libraryDocuments.map((d) => d.fileName).join(", ")}`);
  out.push(`- ${c.k} best matches per provision of A; ${c.sections} provisions, ${c.pairsExamined} candidate pairs examined`);
  out.push(
    `- Scored by ${c.scorerVersion} with the embedding model ${c.embeddingModel || "(none)"}${c.llmModel ? `; verdicts by ${c.llmModel}` : ""}; a match below ${c.matchThreshold} counts as none`,
  );
  out.push(`- Computed ${c.updatedAt}${c.stale ? `. Note: ${c.stale}` : ""}`, "");
  out.push("| A provision | Best matches in B | Score | Flags / verdict |", "|---|---|---|---|");
  for (const row of input.crosswalk.rows) {
    const a = `${row.aLabel}${row.aHeading ? ` — ${row.aHeading}` : ""}`;
    const matches = row.matches.map((m) => `${m.rank}. ${m.bLabel}${m.bHeading ? ` — ${m.bHeading}` : ""}`).join("<br>");
    const scores = row.matches.map((m) => m.score.toFixed(2)).join("<br>");
    const notes = row.matches.map((m) => [flagText(m.flags), verdictText(m)].filter((x) => x !== "").join("; ") || "—").join("<br>");
    out.push(`| ${mdCell(a)} | ${mdCell(matches || (row.unmatched ? "no match" : ""))} | ${scores || "—"} | ${mdCell(notes || "—")} |`);
  }
  out.push("", "## Matching sentences", "", `Each match scoring ${c.matchThreshold} or more, its best matching sentences quoted and cited.`, "");
  for (const row of input.crosswalk.rows) {
    for (const match of row.matches) {
      if (match.score < c.matchThreshold) continue;
      const { a, b } = sides(input, row, match);
      if (a.quote === "" && b.quote === "") continue;
      out.push(`### ${row.aLabel} ↔ ${match.bLabel} (score ${match.score.toFixed(2)})`, "");
      out.push(`> ${a.quote}`, ">", `> — ${a.document}, ${a.location.citation}, ${pageText(a.location)}`, "");
      out.push(`> ${b.quote}`, ">", `> — ${b.document}, ${b.location.citation}, ${pageText(b.location)}`, "");
      const notes = [flagText(match.flags), match.verdict ? `Verdict: ${verdictText(match)}` : ""].filter((x) => x !== "");
      if (notes.length > 0) out.push(notes.join(". "), "");
    }
  }
  return `${out.join("\n")}\n`;
}

function slug(text: string): string {
  return (
    text
      .replace(/\.[a-z0-9]+$/i, "")
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "document"
  );
}

export function exportCrosswalk(input: ExportInput, format: CrosswalkExportFormat): ExportFile {
  const c = input.crosswalk.comparison;
  const name = `crosswalk-${slug(c.documentA.fileName)}-vs-${slug(c.documentB?.fileName ?? "library")}`;
  return format === "csv"
    ? { fileName: `${name}.csv`, mimeType: "text/csv;charset=utf-8", text: toCsv(input) }
    : { fileName: `${name}.md`, mimeType: "text/markdown;charset=utf-8", text: toMarkdown(input) };
}
