import { makeRoom } from "../text/index.ts";
import { StemCache } from "./rescore.ts";
import { SectionVectorCache } from "./section-cosine.ts";

// What retrieval remembers between questions, owned by whoever runs the searches (the engine
// makes one with createEngine and drops it with the engine): section stems and their positions,
// the headings above each section, and section vectors embedded on the fly. Each is keyed by what
// it is made of (id and text, id and headings, model and text), so a re-imported section is never
// served stale data; none outlives its owner.

/** Entries per cache at most (the oldest go first): bounds memory for very large libraries. */
const CONTEXT_CAPACITY = 50_000;

export class ContextCache {
  private readonly entries = new Map<string, string>();
  get(key: string): string | undefined {
    return this.entries.get(key);
  }
  /** Makes room for `incoming` more entries (the oldest go). */
  reserve(incoming: number): void {
    makeRoom(this.entries, CONTEXT_CAPACITY, incoming);
  }
  set(key: string, context: string): void {
    this.entries.set(key, context);
  }
  get size(): number {
    return this.entries.size;
  }
}

export interface RetrievalCaches {
  stems: StemCache;
  sectionVectors: SectionVectorCache;
  contexts: ContextCache;
}

export function createRetrievalCaches(): RetrievalCaches {
  return { stems: new StemCache(), sectionVectors: new SectionVectorCache(), contexts: new ContextCache() };
}
