import type { Modality } from "../model/graph-records.ts";

// The questions the graph answers exactly, as typed intents with their parameters. Each becomes
// one parameterised, read-only query (intent-queries.ts); the words of the question never become
// Cypher text.

/** Provisions as section labels ("Article 19", "§ 164.308", "Chapter III"), optionally within named documents. */
export interface ProvisionTarget {
  labels: string[];
  /** Documents the question names; [] means every document holding such a label. */
  documentIds: string[];
}

export type GraphIntent =
  /** Sections whose text cites the provision (only sections of `citingDocumentIds` when the question says "sections of DORA"). */
  | ({ kind: "cites"; citingDocumentIds: string[] } & ProvisionTarget)
  /** What the provision itself cites (sections of the library, or other acts). */
  | ({ kind: "cited-by" } & ProvisionTarget)
  /**
   * The terms documents define and where; one term's definition when `term` is given; only those
   * defined in the named provisions when `labels` is given ("… defined in § 164.304?").
   */
  | { kind: "defines"; documentIds: string[]; term?: string; labels?: string[] }
  /**
   * What a party must, may or must not do (rule and model triplets), optionally only duties with a
   * time limit; only those the named provisions state when `labels` is given ("… under Article 28?").
   */
  | { kind: "obligations"; party: string; documentIds: string[]; modalities: Modality[]; withDeadline: boolean; topic: string[]; labels?: string[] }
  /**
   * Every time limit the documents' operative provisions print (about `topic`, in the provisions
   * `labels` names, when given); only the time limits of the duties of `party` when one is named.
   */
  | { kind: "deadlines"; documentIds: string[]; topic: string[]; labels?: string[]; party?: string }
  /**
   * Who must notify (inform, report to, …) whom; optionally only when the party told is named, the
   * party telling (`party`), or in the named provisions.
   */
  | { kind: "notify"; documentIds: string[]; recipient?: string; party?: string; topic: string[]; labels?: string[] }
  /** A provision's parent, children or siblings in the document's structure. */
  | ({ kind: "structure"; relation: "parent" | "children" | "siblings" } & ProvisionTarget)
  /** The documents whose text mentions a name (in the provisions `labels` names, when given). */
  | { kind: "mentions"; name: string; labels?: string[] };

export type GraphIntentKind = GraphIntent["kind"];

/** How the route line names each intent. */
export const INTENT_NAMES: Record<GraphIntentKind, string> = {
  cites: "sections citing a provision",
  "cited-by": "what a provision cites",
  defines: "defined terms",
  obligations: "obligations of a party",
  deadlines: "deadlines",
  notify: "who must notify whom",
  structure: "document structure",
  mentions: "documents mentioning a name",
};
