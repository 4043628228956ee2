import type { PDFDocumentProxy } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import type { ClauseGraphApi, ErrorInfo } from "../../../core/contract/contract.ts";
import { decodeBase64 } from "../lib/decode-base64.ts";

// The original PDF of a document, opened once per document and kept while the app runs: paging
// through a regulation's sections re-renders pages, never re-downloads or re-parses the file.
// The worker is bundled by vite from node_modules (no CDN), and pdf.js is loaded only when a page
// is first shown, so the app starts without it.

export type PdfSource = { kind: "pdf"; pdf: PDFDocumentProxy } | { kind: "none"; reason: "not-pdf" } | { kind: "failed"; error: ErrorInfo };

const cache = new Map<string, Promise<PdfSource>>();

async function open(api: ClauseGraphApi, documentId: string): Promise<PdfSource> {
  const source = await api.getDocumentSource({ id: documentId });
  if (!source.ok) return { kind: "failed", error: source.error };
  if (source.value.format !== "pdf") return { kind: "none", reason: "not-pdf" };
  try {
    const pdfjs = await import("pdfjs-dist");
    pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
    const pdf = await pdfjs.getDocument({
      data: decodeBase64(source.value.bytesBase64),
      // The CSP forbids eval, and a PDF is untrusted input: no compiled font programs.
      isEvalSupported: false,
      useSystemFonts: true,
    }).promise;
    return { kind: "pdf", pdf };
  } catch (err) {
    return { kind: "failed", error: { code: "CORRUPT", message: err instanceof Error ? err.message : String(err) } };
  }
}

export function loadPdf(api: ClauseGraphApi, documentId: string): Promise<PdfSource> {
  let pending = cache.get(documentId);
  if (pending === undefined) {
    pending = open(api, documentId);
    cache.set(documentId, pending);
    // A failure is not cached: the file may come back (re-import) or the host may recover.
    void pending.then((s) => {
      if (s.kind === "failed") cache.delete(documentId);
    });
  }
  return pending;
}

/** After a delete: the kept PDF is gone, and a re-import may differ. */
export function forgetPdf(documentId: string): void {
  const pending = cache.get(documentId);
  cache.delete(documentId);
  void pending?.then((s) => (s.kind === "pdf" ? s.pdf.destroy() : undefined));
}
