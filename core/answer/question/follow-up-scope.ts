import type { QuestionAnalysis } from "../../model/question-analysis-types.ts";
import type { DocumentRecord } from "../../model/store-records.ts";
import { libraryScopeNamer, type ScopeNamer } from "./follow-up.ts";

// How the engine tells whether a question names a scope of its own, for the follow-up rule: the
// question analysis (documents by title and alias, registry instruments, provisions), joined with
// follow-up.ts's own patterns (file names, acronyms a title defines, numbered instruments) so a
// name either one knows is enough. Parties ("processors") are not a scope: they are what a
// follow-up asks about.

/** `read`: the question analysis of a text against `documents` (the ask's own, read once per text). */
export function analysisScopeNamer(documents: readonly DocumentRecord[], read: (question: string) => QuestionAnalysis): ScopeNamer {
  const fileNames = new Map(documents.map((d) => [d.id, d.fileName]));
  const local = libraryScopeNamer(documents);
  return (question) => {
    const { scope } = read(question);
    return [...new Set([...scope.instruments, ...scope.provisions, ...scope.documentIds.map((id) => fileNames.get(id) ?? id), ...local(question)])];
  };
}
