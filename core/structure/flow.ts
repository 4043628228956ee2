import type { ParsedDocument, TextLine } from "../model/ingest-types.ts";

// Sectioning reads the document as one stream of body lines; each keeps where it came from so
// the builder can turn it back into page spans.

export interface FlowLine {
  /** Position in the stream, 0-based. */
  index: number;
  line: TextLine;
  /** The line's text with surrounding whitespace removed. */
  text: string;
}

export function flattenLines(doc: ParsedDocument): FlowLine[] {
  const out: FlowLine[] = [];
  for (const page of doc.pages) {
    for (const line of page.lines) {
      const text = line.text.replace(/\s+/g, " ").trim();
      if (text.length === 0) continue;
      out.push({ index: out.length, line, text });
    }
  }
  return out;
}
