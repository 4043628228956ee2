// Deterministic cross-reference finder: one grammar of citations (EU, CFR, NIST, Italian) with its
// resolution rules. A reference is parsed as a chain of "unit phrases" ("point (a)" of
// "Article 6(1)"; "art. 65", "comma 2", "lett. b)") plus an optional instrument ("of Directive (EU)
// 2022/2555", "del Codice"). The chain is ordered coarse → fine, the finest coarse unit becomes the
// label (what the sectioner labels a section) and everything finer becomes the pinpoint, because
// sections stop at article / § / requirement level.
//
// The grammar lives in cross-references/: the result and phrase shapes (types.ts), keywords, value
// shapes and separators (lexicon.ts), range expansion (ranges.ts), one unit phrase (phrase.ts), a
// whole chain with its instrument (chain.ts), citations that print the instrument first, "45 CFR
// 164.316" (prefixed.ts), labels and pinpoints (targets.ts), and the scan over a text (scanner.ts).

export type { CrossReference, CrossReferenceContext, CrossReferenceTarget, DocumentKind, ReferenceLanguage } from "./cross-references/types.ts";
export { MAX_RANGE } from "./cross-references/ranges.ts";
export { findCrossReferences } from "./cross-references/scanner.ts";
