import { singularizeWord } from "./normalize-entity.ts";

// Who a party is, as the regulations themselves class them: the authorities that supervise, the
// parties the rules bind, the people the data is about, their clients, and other persons named in
// a role. Typed only where the name (or the document's definition of it) says so; anything else
// stays untyped rather than guessed.

export type PartyType = "authority" | "regulated party" | "data subject" | "client" | "person";

// Matched against the end of a normalised (lower-case, singular) name before any "of" phrase, so
// "relevant competent authority" is an authority and "critical ICT third-party service provider" a
// regulated party. Longer entries win over shorter ones.
const LEXICON: ReadonlyArray<readonly [string, PartyType]> = [
  // Authorities (EU, US, Italian)
  ["authority", "authority"],
  ["supervisory authority", "authority"],
  ["competent authority", "authority"],
  ["commission", "authority"],
  ["european parliament", "authority"],
  ["parliament", "authority"],
  ["council", "authority"],
  ["european data protection board", "authority"],
  ["european data protection supervisor", "authority"],
  ["hhs", "authority"],
  ["department", "authority"],
  ["european commission", "authority"],
  ["esa", "authority"],
  ["european supervisory authority", "authority"],
  ["eba", "authority"],
  ["esma", "authority"],
  ["eiopa", "authority"],
  ["ecb", "authority"],
  ["enisa", "authority"],
  ["joint committee", "authority"],
  ["lead overseer", "authority"],
  ["overseer", "authority"],
  ["oversight forum", "authority"],
  ["jon", "authority"],
  ["joint oversight network", "authority"],
  ["joint examination team", "authority"],
  ["member state", "authority"],
  ["board", "authority"],
  ["secretary", "authority"],
  ["alj", "authority"],
  ["administrative law judge", "authority"],
  ["court", "authority"],
  ["tribunal", "authority"],
  ["agency", "authority"],
  ["federal agency", "authority"],
  ["csirt", "authority"],
  ["computer security incident response team", "authority"],
  ["single point of contact", "authority"],
  ["stazione appaltante", "authority"],
  ["amministrazione aggiudicatrice", "authority"],
  ["ente appaltante", "authority"],
  ["anac", "authority"],
  ["responsabile unico del progetto", "authority"],
  ["responsabile unico del procedimento", "authority"],
  ["rup", "authority"],
  ["commissione giudicatrice", "authority"],
  // Parties the rules bind
  ["controller", "regulated party"],
  ["joint controller", "regulated party"],
  ["processor", "regulated party"],
  ["sub-processor", "regulated party"],
  ["financial entity", "regulated party"],
  ["credit institution", "regulated party"],
  ["investment firm", "regulated party"],
  ["payment institution", "regulated party"],
  ["electronic money institution", "regulated party"],
  ["insurance undertaking", "regulated party"],
  ["reinsurance undertaking", "regulated party"],
  ["central securities depository", "regulated party"],
  ["csd", "regulated party"],
  ["central counterparty", "regulated party"],
  ["trading venue", "regulated party"],
  ["microenterprise", "regulated party"],
  ["service provider", "regulated party"],
  ["third-party service provider", "regulated party"],
  ["undertaking", "regulated party"],
  ["enterprise", "regulated party"],
  ["management body", "regulated party"],
  ["covered entity", "regulated party"],
  ["hybrid entity", "regulated party"],
  ["business associate", "regulated party"],
  ["health plan", "regulated party"],
  ["group health plan", "regulated party"],
  ["health care provider", "regulated party"],
  ["covered health care provider", "regulated party"],
  ["health care clearinghouse", "regulated party"],
  ["clearinghouse", "regulated party"],
  ["plan sponsor", "regulated party"],
  ["subcontractor", "regulated party"],
  ["contractor", "regulated party"],
  ["organization", "regulated party"],
  ["nonfederal organization", "regulated party"],
  ["operatore economico", "regulated party"],
  ["concorrente", "regulated party"],
  ["aggiudicatario", "regulated party"],
  ["appaltatore", "regulated party"],
  ["fornitore", "regulated party"],
  ["offerente", "regulated party"],
  ["contraente", "regulated party"],
  ["impresa", "regulated party"],
  // The people the data is about
  ["data subject", "data subject"],
  ["individual", "data subject"],
  ["natural person", "data subject"],
  ["patient", "data subject"],
  ["child", "data subject"],
  ["minor", "data subject"],
  ["interessato", "data subject"],
  // Clients of regulated parties
  ["client", "client"],
  ["customer", "client"],
  ["consumer", "client"],
  ["service user", "client"],
  ["investor", "client"],
  // Other persons in a role
  ["representative", "person"],
  ["media outlet", "person"],
  ["prominent media outlet", "person"],
  ["data protection officer", "person"],
  ["auditor", "person"],
  ["tester", "person"],
  ["independent expert", "person"],
  ["expert", "person"],
  ["recipient", "person"],
  ["third party", "person"],
  ["person", "person"],
  ["official", "person"],
  ["employee", "person"],
  ["workforce member", "person"],
  ["privacy official", "person"],
  ["security official", "person"],
  ["party", "person"],
  ["respondent", "person"],
  ["complainant", "person"],
  ["petitioner", "person"],
  ["witness", "person"],
];

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
