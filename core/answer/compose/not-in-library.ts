// Why a question about something that was not imported gets no answer, in words: the known
// instruments it names that no imported document is (core/names/ registry: "No imported document
// is MiCA (Regulation (EU) 2023/1114)"), then other names no imported document mentions
// (question-names.ts: "None of the imported documents mentions “LGPD”").

function list(items: readonly string[], quote: boolean): string {
  const shown = items.slice(0, 3).map((n) => (quote ? `“${n}”` : n));
  return shown.length <= 1 ? (shown[0] ?? "") : `${shown.slice(0, -1).join(", ")} or ${shown.at(-1) ?? ""}`;
}

/** The refusal's reason, or null when the question names nothing the library lacks. */
export function notInLibraryReason(missingInstruments: readonly string[], missingNames: readonly string[]): string | null {
  if (missingInstruments.length > 0) {
    return `No imported document is ${list(missingInstruments, false)}; import ${missingInstruments.length === 1 ? "it" : "them"} to ask about ${missingInstruments.length === 1 ? "it" : "them"}.`;
  }
  if (missingNames.length > 0) return `None of the imported documents mentions ${list(missingNames, true)}; import the document that does to ask about it.`;
  return null;
}
