import type { ClauseGraphApi, Result, Section } from "../../../core/contract/contract.ts";

// sections.list per document, shared by the viewer's previous/next buttons and cross-reference
// links: a regulation's sections are fetched once, not on every step through it.
const cache = new Map<string, Promise<Result<Section[]>>>();

export function loadDocumentSections(api: ClauseGraphApi, documentId: string): Promise<Result<Section[]>> {
  let pending = cache.get(documentId);
  if (pending === undefined) {
    pending = api.listSections({ documentId });
    cache.set(documentId, pending);
    void pending.then((r) => {
      if (!r.ok) cache.delete(documentId);
    });
  }
  return pending;
}

export function forgetDocumentSections(documentId: string): void {
  cache.delete(documentId);
}
