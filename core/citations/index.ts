// Citations: how a provision, its paragraph and its page are named, and pinpoints from each
// family's numbering grammar. Answers, graph answers, crosswalks and workpapers name them alike.
export { citationLabel, pageText, shortDocumentName, shortSectionLabel, type CitationLabelParts } from "./citation-label.ts";
export { MARKER, marksLettere, PinpointTracker, pinpointFamily, printPinpoint, type PinpointFamily, type PinpointOptions } from "./pinpoint.ts";
export { grammarFamily, pinpointHeads, withinGrammar, type GrammarFamily } from "./grammar.ts";
export { pageAt } from "./section-page.ts";
export { partLabel, partNumber, provisionLabel } from "../structure/part-label.ts";
