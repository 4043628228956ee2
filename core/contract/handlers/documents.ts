import { ClauseGraphError } from "../../model/errors.ts";
import { importRequest } from "./document-imports.ts";
import type { FeatureHandlers, HandlerContext } from "./handler-types.ts";

// The library's documents and their sections: importing (by path or upload), listing, naming,
// deleting, and the original file for the viewer.

type DocumentChannels =
  "documents.import" | "documents.upload" | "documents.list" | "documents.delete" | "documents.aliases" | "documents.source" | "sections.get" | "sections.list";

/** Base64 without Node's Buffer (the contract is shared with the browser build); chunked for large files. */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function documentHandlers({ engine, imports }: HandlerContext): FeatureHandlers<DocumentChannels> {
  return {
    "documents.import": (params) => imports.byPath(params.files, importRequest(params)),
    "documents.upload": (params) => imports.uploaded(params),
    "documents.list": () => engine.listDocuments(),
    "documents.delete": (params) => engine.deleteDocument(params.id),
    "documents.aliases": (params) => engine.setDocumentAliases(params.id, params.aliases),
    "documents.source": async (params) => {
      const source = await engine.getDocumentSource(params.id);
      return {
        documentId: source.documentId,
        fileName: source.fileName,
        format: source.format,
        bytesBase64: toBase64(source.bytes),
      };
    },
    "sections.get": async (params) => {
      const section = await engine.getSection(params.id);
      if (section === null) throw new ClauseGraphError("NOT_FOUND", `No section with id ${params.id}`);
      return section;
    },
    "sections.list": (params) => engine.getSections(params.documentId),
  };
}
