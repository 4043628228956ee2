// A question asks for a kind of provision whose wording it does not repeat: "From what date does
// DORA apply?" is answered by "It shall apply from 17 January 2025" in an article titled "Entry
// into force and application"; "Which entities fall within the scope of DORA?" by "This Regulation
// applies to the following financial entities". The retrieval query gains the words such
// provisions print, for the answer types where the question's own words miss them (the labelled
// set's date-of-application and scope questions often missed the answering article before).

const PROVISION_WORDS: Record<"en" | "it", Partial<Record<string, string>>> = {
  en: {
    "application-date": "shall apply from entry into force application",
    scope: "scope applies apply to",
    definition: "means definitions",
  },
  // An Italian question searched with English words reached the GDPR's "It shall apply from …"
  // instead of the tender's own "durata dell'appalto" (labelled question it-d04).
  it: {
    "application-date": "decorrere decorrenza entrata in vigore si applica",
    scope: "ambito di applicazione si applica",
    definition: "si intende definizioni",
  },
};

/**
 * "When does DORA enter into force?" asks for the entry into force, not the date it applies from:
 * with "shall apply from" added, "It shall apply from 17 January 2025" (Art. 64, second
 * paragraph) led instead of "… shall enter into force on the twentieth day …".
 */
const ENTRY_INTO_FORCE = /\b(?:enters?|entered|entry) into force\b|\bin vigore\b/i;
const ENTRY_INTO_FORCE_WORDS = { en: "shall enter into force entry into force", it: "entra in vigore entrata in vigore" } as const;

export function retrievalQuery(question: string, answerType: string, language: "en" | "it" = "en"): string {
  const words = answerType === "application-date" && ENTRY_INTO_FORCE.test(question) ? ENTRY_INTO_FORCE_WORDS[language] : PROVISION_WORDS[language][answerType];
  return words === undefined ? question : `${question} ${words}`;
}
