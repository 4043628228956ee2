import { libraryNames } from "../model/document-names.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import { libraryScopeNamer, type ScopeNamer } from "./follow-up.ts";
import type { LanguageResources } from "./language-resources.ts";
import { analyzeQuestion } from "./question-analysis.ts";

// How the engine tells whether a question names a scope of its own, for the follow-up rule: the
// question analysis (documents by title and alias, registry instruments, provisions), joined with
// follow-up.ts's own patterns (file names, acronyms a title defines, numbered instruments) so a
// name either one knows is enough. Parties ("processors") are not a scope: they are what a
// follow-up asks about.

export function analysisScopeNamer(documents: readonly DocumentRecord[], resources: LanguageResources): ScopeNamer {
  const library = libraryNames([...documents]);
  const fileNames = new Map(documents.map((d) => [d.id, d.fileName]));
  const local = libraryScopeNamer(documents);
  return (question) => {
    const { scope } = analyzeQuestion(question, library, resources);
    return [...new Set([...scope.instruments, ...scope.provisions, ...scope.documentIds.map((id) => fileNames.get(id) ?? id), ...local(question)])];
  };
}
