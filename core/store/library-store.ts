import { createKuzuStore, type KuzuGraphStore, type KuzuStoreOptions } from "./kuzu/kuzu-store.ts";
import { sectionFileDirectory, withSectionFiles, type SectionFileControls } from "./section-files.ts";

/** The library's store as the engine opens it: Kuzu, its sections and triplets read from their files where those match. */
export function createLibraryStore(options: KuzuStoreOptions): KuzuGraphStore & SectionFileControls {
  const kuzu = createKuzuStore(options);
  return withSectionFiles(kuzu, sectionFileDirectory(kuzu.dbPath), { ...(options.log ? { log: options.log } : {}), readOnly: () => kuzu.isReadOnly() });
}
