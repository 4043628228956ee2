// The text toolkit every feature shares: words, stop words, stemmers per language, similarity,
// the parties the regulations name.
export { WORD, escapeRegExp, tokenize } from "./tokens.ts";
export {
  DRAFTING_WORDS,
  ENGLISH_FUNCTION_WORDS,
  ITALIAN_FUNCTION_WORDS,
  AMBIGUOUS_FUNCTION_WORDS,
  REQUEST_WORDS,
  ROMAN_NUMERALS,
  isFunctionWord,
} from "./stop-words.ts";
export { memoized, stemEnglish, stemEnglishFolded, STEM_MEMO_WORDS } from "./stem-english.ts";
export { stemItalian } from "./stem-italian.ts";
export { createEnglishStems, type EnglishStems } from "./stem-porter.ts";
export { englishPipeline } from "./english-model.ts";
export { porterStem } from "./stem-porter-original.ts";
export { SEARCH_STOP_WORDS } from "./search-stop-words.ts";
export { makeRoom } from "./make-room.ts";
export { cosineSimilarity, dot, jaccard } from "./similarity.ts";
export { PARTIES, formsOf, type Party, type PartyType } from "./parties.ts";
