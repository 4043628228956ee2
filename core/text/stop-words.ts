// Function words, one list per language, and the words of legal drafting. What a search, an
// answer and a crosswalk leave out of a text is decided here, once.

const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== "");

/** English function words (articles, pronouns, auxiliaries, prepositions, quantifiers). */
export const ENGLISH_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  words(
    "a an the and or nor but if then else of to in on at by for with from into onto upon about as than " +
      "so such that this these those there here it its it's itself they them their theirs we us our you your " +
      "he she his her him i me my be is are was were been being am do does did doing done have has had having " +
      "can could may might must shall should will would what which who whom whose when where why how whether " +
      "any all each every some no not only also other others same very more most less least much many " +
      "under over between within without during before after above below through per via out up down off " +
      "again further once both either neither own too just one two its i.e e.g etc",
  ),
);

/**
 * Italian function words: articles, prepositions with their contractions, auxiliaries, the words
 * of asking. Words that are also English ("non", "come", "state", "sue", "va") are left out:
 * English questions use "non" often ("non-compliance").
 */
export const ITALIAN_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  words(
    "il lo la i gli le l un uno una di a da in con su per tra fra del dello della dei degli delle " +
      "al allo alla ai agli alle dal dallo dalla dai dagli dalle nel nello nella nei negli nelle sul sullo " +
      "sulla sui sugli sulle col coi e ed o od ma se che chi cui ne ci si vi mi ti è sono essere " +
      "sia siano stato stata stati ha hanno avere aver deve devono dovere può possono potere " +
      "viene vengono vanno qual quale quali quando dove cosa perché perche quanto quanti quanta quante " +
      "questo questa questi queste quello quella quelli quelle ogni tutti tutte tutto tutta anche più meno " +
      "molto suo sua suoi loro nostro nostra essa esso essi esse",
  ),
);

/** Italian function words that are also English word forms: answers leave them out, searches keep them. */
export const AMBIGUOUS_FUNCTION_WORDS: ReadonlySet<string> = new Set(words("non come"));

/** A function word of English or Italian (the Italian ones that are not also English). */
export function isFunctionWord(word: string): boolean {
  return ENGLISH_FUNCTION_WORDS.has(word) || ITALIAN_FUNCTION_WORDS.has(word);
}

/**
 * The vocabulary of asking, not of the regulated subject ("What specific requirements must …
 * ensure …"): it matches nearly every rule and only dilutes a search.
 */
export const REQUEST_WORDS: ReadonlySet<string> = new Set(
  words(
    "specific specifically particular particularly regarding regard relation relating related respect " +
      "ensure ensuring clarify clarification explain outline detail details describe provide provided " +
      "expected expectations expect considered consider considering steps step measures measure taken take " +
      "need needs needed required requirements requirement necessary applicable apply applies " +
      "guidance context circumstances situation case cases instance example type types kind kinds way ways " +
      "please could would like know understand mean means meant " +
      // Italian: "quali adempimenti sono previsti…", "in che modo bisogna…", "indicare…"
      "previsto prevista previsti previste necessario necessaria necessari necessarie richiesto richiesta " +
      "richiesti richieste bisogna occorre modo modalità indicare indica spiegare descrivere sapere",
  ),
);

/** Words of legal drafting rather than of the subject: present in nearly every provision of every act. */
export const DRAFTING_WORDS: ReadonlySet<string> = new Set(
  words(
    "article articles paragraph paragraphs subparagraph subparagraphs point points section sections chapter chapters annex annexes " +
      "regulation regulations directive decision referred pursuant accordance provided provide laid down set forth thereof therein " +
      "hereby herein whereas accordingly apply applies applied applicable including include includes included particular relevant " +
      "appropriate necessary ensure ensuring take taken account respect regard relation " +
      // Italian
      "art comma lettera articolo decreto",
  ),
);

/** Roman numerals of list points ("(ii)", "(iv)"): numbering, not words. */
export const ROMAN_NUMERALS: ReadonlySet<string> = new Set(words("ii iii iv v vi vii viii ix x"));
