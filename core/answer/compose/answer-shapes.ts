// Shapes the sentence pool, the model's context and the quoted answer read alike, named once.

/** A list point's marker opening a sentence: "(a) ", "b) ", "(a)(1) ", "(ii) ", "• ". */
export const MARKED_POINT = /^(?:(?:\(?(?:[a-z]{1,2}|[ivx]{1,5}|\d{1,2})\))+|[•▪◦‣●])\s/i;

/** Answer types whose answer is a list: a lead-in ("… shall at least:") with its items, whole. */
export const LIST_TYPES: ReadonlySet<string> = new Set(["requirements", "procedure"]);

/** Obligation words ("shall", "must") are in nearly every provision: for these types a cue is weak at most. */
export const WEAK_CUE_TYPES: ReadonlySet<string> = new Set(["requirements", "procedure", "party"]);
