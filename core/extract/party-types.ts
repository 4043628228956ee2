import { PARTIES, formsOf, type PartyType } from "../text/index.ts";
import { singularizeWord } from "./normalize-entity.ts";

// Who a party is (authority, regulated party, data subject, client, person), as the table of
// parties gives it (core/text/parties.ts); a name it does not type stays untyped rather than guessed.

export type { PartyType };

// Matched against the end of a normalised (lower-case, singular) name before any "of" phrase, so
// "relevant competent authority" is an authority and "critical ICT third-party service provider" a
// regulated party. Longer entries win over shorter ones.
const LEXICON: ReadonlyArray<readonly [string, PartyType]> = PARTIES.flatMap((party) => {
  const { type } = party;
  return type === undefined ? [] : formsOf(party, party.typed ?? true).map((form) => [form.toLowerCase(), type] as const);
});

const BY_PHRASE = new Map<string, PartyType>(LEXICON.map(([phrase, type]) => [phrase, type]));
const LONGEST = Math.max(...LEXICON.map(([phrase]) => phrase.split(" ").length));

/** The part of a name before any "of"/"di" phrase: "management body of the financial entity" → "management body". */
function headPhrase(name: string): string {
  return name.split(/\s+(?:of|for|di|del|della|dei|degli|delle|dello)\s+/u)[0] ?? name;
}

/**
 * The party type a normalised name (lower case, head singular) says, from its head words before
 * any "of" phrase: the last words in English ("relevant competent authority" → authority), the
 * first in Italian ("stazione appaltante capofila"). null when the name is not a party.
 */
export function partyTypeOfName(name: string, language: "en" | "it" = "en"): PartyType | null {
  const head = headPhrase(
    name
      .toLowerCase()
      .trim()
      .replace(/^(?:(?:the|a|an|its|their|his|her|each|every|any|all|such|those|these|that|this|both|other|relevant)\s+)+/u, ""),
  );
  const direct = BY_PHRASE.get(head);
  if (direct !== undefined) return direct;
  const words = head.split(/\s+/).filter((w) => w !== "");
  // English plurals: "competent authorities" is a competent authority.
  if (language === "en" && words.length > 0) words[words.length - 1] = singularizeWord(words[words.length - 1] ?? "");
  for (let n = Math.min(LONGEST, words.length); n >= 1; n--) {
    const phrase = (language === "it" ? words.slice(0, n) : words.slice(-n)).join(" ");
    // "third-party service provider" written with the hyphen as a space, and the reverse.
    const type = BY_PHRASE.get(phrase) ?? BY_PHRASE.get(phrase.replace(/ /g, "-")) ?? BY_PHRASE.get(phrase.replace(/-/g, " "));
    if (type !== undefined) return type;
  }
  return null;
}
