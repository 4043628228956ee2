import { effectiveAliases } from "../../../core/contract/contract.ts";
import type { DocumentRecord } from "../../../core/contract/contract.ts";

// Finding a document by typing part of its names: the file name, the title and the instrument
// names it answers to, compared without case or accents ("reglement" finds "Règlement"). Each
// document's text is folded once per library change, so a keystroke only scans strings.

/** Lower case, accents and other combining marks dropped, spaces collapsed. */
export function foldForFilter(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

export interface IndexedDocument {
  document: DocumentRecord;
  /** Every name of the document, folded. */
  text: string;
}

export function indexDocuments(documents: readonly DocumentRecord[]): IndexedDocument[] {
  return documents.map((document) => ({
    document,
    text: foldForFilter([document.fileName, document.title, ...effectiveAliases(document)].join("\n")),
  }));
}

/** The words of a query, folded: a document matches when it contains every one of them. */
export function filterWords(query: string): string[] {
  const folded = foldForFilter(query);
  return folded === "" ? [] : folded.split(" ");
}

export function matchesWords(text: string, words: readonly string[]): boolean {
  return words.every((word) => text.includes(word));
}

export function filterDocuments(index: readonly IndexedDocument[], query: string): DocumentRecord[] {
  const words = filterWords(query);
  const matching = words.length === 0 ? index : index.filter((entry) => matchesWords(entry.text, words));
  return matching.map((entry) => entry.document);
}
