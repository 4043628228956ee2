// English obligations read off wink-nlp's POS tags, clause by clause around each modal:
//   subject   the noun phrase opening the modal's clause (after any introductory "Where …," and
//             skipping a parenthetical before the modal), the antecedent of "which"/"who", or
//             the previous subject for "it"/"they" and a coordinated "… and shall";
//   predicate modal + the first base-form verb after it (+ coordinated verbs, particle or
//             preposition, the participle of a passive, "be responsible for", "be required to V");
//   object    the noun phrase the verb governs (with its "of" phrases), the agent or addressee of
//             a passive ("be submitted to the Commission");
//   recipient for verbs of telling (notify, inform, report, submit …), the party told.
// Every part is a noun phrase from noun-phrases.ts or nothing: a sentence the rules cannot parse
// yields no triplet rather than a fragment. Lists introduced by "must:" hand their subject and
// modal to the imperative items that follow ("(A) Risk analysis (Required). Conduct an accurate
// and thorough assessment …"), and imperative requirements (NIST SP 800-171 "Limit system
// access …") take the document's addressee when the caller gives one.
//
// The rules live in obligations-en/: the word lists (clause-words.ts, verb-words.ts), word classes
// (word-classes.ts), modals and imperatives (modality.ts), subjects (subject.ts), predicates
// (predicate.ts), objects and recipients (complements.ts), and the sentence-by-sentence assembly
// (find-obligations.ts).

export { findEnglishObligations, type EnglishObligationOptions } from "./obligations-en/find-obligations.ts";
