import type { KnownDocument } from "../extract/resolve-references.ts";
import type { DerivedGraph } from "../model/graph-records.ts";
import type { DocumentOutline, Section } from "../model/section-types.ts";
import { buildCrossReferences, labelIndex } from "./cross-reference-graph.ts";
import { documentAliases } from "./document-aliases.ts";
import { documentKind } from "./document-kind.ts";
import { runToEnd, runYielding, type GraphSteps } from "./graph-steps.ts";
import { termSteps } from "./term-graph.ts";
import { ruleTripletSteps, type TripletGraphOptions } from "./triplet-graph.ts";

export interface GraphDocument {
  id: string;
  title: string;
  language: string;
}

/** Another imported document: its outline is all that citations into it are resolved against. */
export type OtherDocument = DocumentOutline;

/**
 * The model-free part of the knowledge graph of one document: its cross-references (into itself
 * and into the other imported documents), the terms it defines, and the rule-based obligation
 * triplets with their entities. Embeddings are filled by the embedding stage.
 */
export function buildDerivedGraph(
  doc: GraphDocument,
  sections: readonly Section[],
  others: readonly OtherDocument[],
  options: TripletGraphOptions = {},
): DerivedGraph {
  return runToEnd(derivedGraphSteps(doc, sections, others, options));
}

/** buildDerivedGraph, letting other work run every ~10 ms: what an import on the engine's thread uses. */
export function buildDerivedGraphYielding(
  doc: GraphDocument,
  sections: readonly Section[],
  others: readonly OtherDocument[],
  options: TripletGraphOptions & { afterYield?: () => void; pause?: () => Promise<void> } = {},
): Promise<DerivedGraph> {
  return runYielding(derivedGraphSteps(doc, sections, others, options), options.afterYield, options.pause);
}

/** What citations resolve against in another document, made once per outline (outlines are kept across imports). */
const knownDocuments = new WeakMap<OtherDocument, KnownDocument>();
function knownDocument(other: OtherDocument): KnownDocument {
  let known = knownDocuments.get(other);
  if (known === undefined) {
    known = { title: other.title, aliases: documentAliases(other.title, other.sections), labels: labelIndex(other.sections) };
    knownDocuments.set(other, known);
  }
  return known;
}

function* derivedGraphSteps(
  doc: GraphDocument,
  sections: readonly Section[],
  others: readonly OtherDocument[],
  options: TripletGraphOptions,
): GraphSteps<DerivedGraph> {
  const language = doc.language === "it" ? "it" : "en";
  const documents = new Map<string, KnownDocument>();
  documents.set(doc.id, { title: doc.title, aliases: documentAliases(doc.title, sections), labels: labelIndex(sections) });
  for (const other of others) {
    if (other.id === doc.id) continue;
    documents.set(other.id, knownDocument(other));
  }
  const terms = yield* termSteps(doc.id, sections, language);
  const { entities, triplets, deadlines } = yield* ruleTripletSteps(doc.id, sections, language, terms, options);
  return {
    crossReferences: buildCrossReferences(doc.id, sections, documentKind(sections, doc.language), language, documents),
    terms,
    entities,
    triplets,
    deadlines,
    sectionEmbeddings: new Map(),
    tripletEmbeddings: new Map(),
  };
}
