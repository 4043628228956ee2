import { provisionLabel } from "../structure/part-label.ts";
import { printPinpoint } from "./pinpoint.ts";
import type { DocumentRecord } from "../model/store-records.ts";

// Citations read the way auditors write them: "DORA Art. 19(4), p. 42", "GDPR Art. 33(1), p. 52",
// "HIPAA § 164.308, pp. 63–64". Titles of regulations are paragraphs long and sometimes garbled in
// the PDF ("REGULATION (EU) 2016/… OF …"), so well-known acts get their common name from the
// title or the file name, and anything else a clipped title.

const KNOWN_NAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /2016[/_-]679|(?<![a-z])gdpr(?![a-z])|general data protection regulation|protection of natural persons with regard to the processing of personal data/i,
    "GDPR",
  ],
  [/2022[/_-]2554|(?<![a-z])dora(?![a-z])|digital operational resilience/i, "DORA"],
  [/(?<![a-z])nis\s*2(?![a-z0-9])|2022[/_-]2555/i, "NIS2"],
  [/disciplinare/i, "Disciplinare di gara"],
  [/capitolato/i, "Capitolato tecnico"],
  [/d\.?\s*lgs\.?\s*(?:n\.?\s*)?36\/2023|codice dei contratti/i, "D.Lgs. 36/2023"],
];
const NIST_SP =
  /(?<![a-z])(?:nist[\s_-]*)?(?:sp|special publication)[\s_-]*800[\s_-]*(\d{1,3})([a-qs-z](?![a-z]))?(?:[\s_,-]*(?:revision|rev\.?|r)[\s_-]*(\d))?/i;
const MAX_TITLE_CHARS = 40;

function clipTitle(title: string): string {
  const t = title.replace(/\s+/g, " ").trim();
  if (t.length <= MAX_TITLE_CHARS) return t;
  const cut = t.lastIndexOf(" ", MAX_TITLE_CHARS);
  return `${t.slice(0, cut > 10 ? cut : MAX_TITLE_CHARS).replace(/[,;:.\s]+$/, "")}…`;
}

/**
 * The name an auditor uses for the document: "DORA", "NIST SP 800-30r1", else a short title. A
 * copy read with OCR is its own document: "HIPAA (scan)" beside the HIPAA imported as text, so an
 * answer citing both tells them apart by more than the page.
 */
export function shortDocumentName(document: Pick<DocumentRecord, "title" | "fileName"> & Partial<Pick<DocumentRecord, "ocr" | "pages">>): string {
  const name = knownName(document);
  // Mostly read with OCR: a text PDF with one scanned signature page is not a scan.
  const scanned = document.ocr !== undefined && document.ocr.pages.length * 2 > (document.pages ?? 0);
  return scanned ? `${name} (scan)` : name;
}

function knownName(document: Pick<DocumentRecord, "title" | "fileName">): string {
  const both = `${document.title} ${document.fileName}`;
  // The NIST HIPAA guide names HIPAA in its title: the publication number decides first.
  const nist = NIST_SP.exec(both);
  if (nist) return `NIST SP 800-${nist[1] ?? ""}${(nist[2] ?? "").toUpperCase()}${nist[3] === undefined ? "" : `r${nist[3]}`}`;
  for (const [re, name] of KNOWN_NAMES) if (re.test(both)) return name;
  if (/(?<![a-z])hipaa(?![a-z])|45\s*cfr/i.test(both)) return "HIPAA";
  const title = document.title.trim();
  return clipTitle(title === "" ? document.fileName.replace(/\.[a-z0-9]+$/i, "") : title);
}

/** "Article 19" → "Art. 19", "Articolo 5" → "Art. 5"; other labels as printed. */
export function shortSectionLabel(label: string): string {
  return label.replace(/^(?:Article|Articolo|Artikel|Art\.)\s+/i, "Art. ").trim();
}

/** "p. 53", "pp. 53–54": the printed page numbers when known, else the PDF's. */
export function pageText(pageStart: number | string, pageEnd: number | string): string {
  return String(pageEnd) !== String(pageStart) ? `pp. ${pageStart}–${pageEnd}` : `p. ${pageStart}`;
}

export interface CitationLabelParts {
  document: Parameters<typeof shortDocumentName>[0];
  sectionLabel: string;
  /** Numbered paragraphs of the cited text ("4"), in order; shown only for articles. */
  paragraphs: readonly string[];
  /** Paragraph and point markers all the cited sentences share ("(3)(a)", "(c)"; see pinpoint.ts). */
  pinpoint?: string | null;
  pageStart: number;
  pageEnd: number;
  /** The pages as printed on them, when they differ from the PDF's (page-labels.ts). */
  printedStart?: string | null;
  printedEnd?: string | null;
}

/** Labels that take a pinpoint: articles ("Art. 34(3)(a)", "Art. 14(1), lett. b)") and CFR sections ("§ 164.310(c)"). */
const PINPOINTABLE = /^(?:Art\.|§)\s/;
/** An Italian numbered section ("Par. 7.2") takes a lettera alone: "Par. 7.2, lett. b)" (its numbered items are lists, not commi). */
const LETTERA_SECTION = /^Par\.\s/;
const LETTERA_ALONE = /^\(lett\. [a-z]\)$/;

export function citationLabel(parts: CitationLabelParts): string {
  // A long provision is stored in parts ("§ 164.512 (part 2)"): a citation names the provision.
  let label = shortSectionLabel(provisionLabel(parts.sectionLabel));
  if (PINPOINTABLE.test(label) && !/\(/.test(label) && parts.pinpoint) {
    label = `${label}${printPinpoint(parts.pinpoint)}`;
  } else if (LETTERA_SECTION.test(label) && parts.pinpoint && LETTERA_ALONE.test(parts.pinpoint)) {
    label = `${label}${printPinpoint(parts.pinpoint)}`;
  } else if (/^Art\. /.test(label) && !/\(/.test(label) && parts.paragraphs.length > 0 && parts.paragraphs.length <= 3) {
    // Sentences from up to three paragraphs: "Art. 19(1), (4)"; more would read worse than the bare article.
    label = `${label}${parts.paragraphs.map((p) => `(${p})`).join(", ")}`;
  }
  const name = shortDocumentName(parts.document);
  const head = name === "" ? label : label === "" ? name : `${name} ${label}`;
  const pages = pageText(parts.printedStart ?? parts.pageStart, parts.printedEnd ?? parts.printedStart ?? parts.pageEnd);
  return `${head}, ${pages}`;
}
