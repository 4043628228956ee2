import { withCrossDocumentIndex, type CrossDocumentIndexControls } from "./cross-document-index.ts";
import { createKuzuStore, type KuzuGraphStore, type KuzuStoreOptions } from "./kuzu/kuzu-store.ts";
import { sectionFileDirectory, withSectionFiles, type SectionFileControls } from "./section-files.ts";

/**
 * The library's store as the engine opens it: Kuzu, with the citations and terms that span
 * documents held in memory, and its sections and triplets read from their files where those match.
 */
export function createLibraryStore(options: KuzuStoreOptions): KuzuGraphStore & SectionFileControls & CrossDocumentIndexControls {
  const kuzu = createKuzuStore(options);
  const indexed = withCrossDocumentIndex(kuzu, options.log ? { log: options.log } : {});
  return withSectionFiles(indexed, sectionFileDirectory(kuzu.dbPath), { ...(options.log ? { log: options.log } : {}), readOnly: () => kuzu.isReadOnly() });
}
