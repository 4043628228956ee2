// The use cases of an engine: what the CLI, the host (through createEngine) and the benches call.
export { ALL_STAGES, databasePath, resolveDocument, searchIndexFreshness, type EngineContext, type Logger, type SearchIndexFreshness } from "./context.ts";
export { askQuestion } from "./ask.ts";
export { searchLibrary } from "./search.ts";
export { importFiles } from "./import.ts";
export { checkLibrary, repairLibrary } from "./repair.ts";
export { deleteDocument, documentSource, setDocumentAliases } from "./documents.ts";
export { bringVectorsUpToDate, openLibrary } from "./open-library.ts";
export { warmUp } from "./warm-up.ts";
export { engineResources } from "./resources.ts";
