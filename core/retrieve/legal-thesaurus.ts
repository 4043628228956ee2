import { isStopword, stem, tokenize } from "./query-terms.ts";

// Auditors ask in everyday words ("data leak", "delete my data", "cloud provider", "the
// regulator"); regulations use defined legal vocabulary ("personal data breach", "erasure",
// "ICT third-party service provider", "supervisory authority"). A static word-vector model
// cannot bridge such pairs reliably, so this curated thesaurus of lay ↔ regulatory expressions
// (English and Italian, across the domains the app serves: data protection, financial
// resilience, health privacy, security controls, public procurement) adds the regulatory
// wording to the lexical query. Each group lists expressions that mean the same thing in a
// question; matching is on light stems, so plurals and verb forms count.

const GROUPS: readonly (readonly string[])[] = [
  // data protection
  ["data leak", "data breach", "personal data breach", "leaked data"],
  ["delete", "deletion", "erase", "erasure", "remove personal data", "right to be forgotten"],
  ["regulator", "supervisory authority", "competent authority", "data protection authority"],
  ["fine", "penalty", "administrative fine", "sanction", "civil money penalty"],
  ["consent", "agreement of the data subject", "permission"],
  ["kid", "child", "minor", "underage"],
  ["privacy officer", "data protection officer", "dpo"],
  ["move data abroad", "transfer to a third country", "international transfer", "cross-border transfer"],
  ["customer data", "personal data", "personal information"],
  ["profiling", "automated decision-making", "automated individual decision"],
  // financial / ICT resilience
  ["bank", "credit institution", "financial entity", "financial institution"],
  ["cloud provider", "cloud service provider", "ict third-party service provider", "outsourcing provider"],
  // Not "it": indistinguishable from the pronoun once lower-cased.
  ["ict", "information technology", "information and communication technology", "it systems"],
  ["cyber attack", "cyber-attack", "cyber threat", "hacker attack", "ict-related incident"],
  ["outage", "disruption", "service interruption", "incident"],
  ["pen test", "penetration testing", "threat-led penetration testing", "tlpt"],
  ["board", "management body", "senior management"],
  ["vendor contract", "contractual arrangement", "contractual provisions"],
  ["exit plan", "exit strategy", "termination of contractual arrangements"],
  // health privacy
  ["health data", "protected health information", "phi", "ephi", "health information"],
  ["hospital", "covered entity", "health care provider"],
  ["contractor", "business associate", "subcontractor"],
  ["backup", "data backup", "backup plan", "copia di sicurezza"],
  ["disaster recovery", "contingency plan", "emergency mode operation"],
  // security controls
  ["login", "log in", "logon", "authentication", "identification and authentication"],
  ["multi-factor", "multifactor", "two-factor", "mfa", "2fa"],
  ["password", "authenticator", "passcode"],
  ["staff", "employee", "workforce", "personnel", "worker"],
  ["training", "awareness training", "security awareness"],
  ["audit trail", "audit log", "audit record", "event logging", "logging"],
  ["usb stick", "removable media", "portable storage device", "system media"],
  ["encrypt", "encryption", "cryptographic protection", "cifratura"],
  ["risk analysis", "risk assessment", "valutazione dei rischi"],
  ["patch", "flaw remediation", "security update"],
  // public procurement (Italian and English)
  ["tender", "call for tenders", "procurement procedure", "gara", "gare", "procedura di gara", "appalto", "appalti"],
  ["bid", "offer", "tender submission", "offerta", "offerte"],
  ["deadline", "time limit", "termine", "scadenza"],
  ["supplier", "economic operator", "contractor", "operatore economico", "fornitore", "concorrente"],
  ["guarantee", "bid bond", "security deposit", "garanzia provvisoria", "cauzione", "garanzia"],
  ["requirements to participate", "selection criteria", "requisiti di partecipazione", "requisiti di ordine speciale"],
  ["award", "aggiudicazione", "contract award"],
  ["subcontracting", "subappalto"],
  ["exclusion grounds", "cause di esclusione", "motivi di esclusione"],
  ["contracting authority", "stazione appaltante", "amministrazione aggiudicatrice"],
];

interface Entry {
  stems: string[];
  group: number;
}

function stems(phrase: string): string[] {
  return tokenize(phrase).map(stem);
}

const ENTRIES: readonly Entry[] = GROUPS.flatMap((group, index) => group.map((phrase) => ({ stems: stems(phrase), group: index })));

function contains(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

const ITALIAN_FUNCTION_WORDS = new Set(["di", "dei", "del", "della", "delle", "da", "per", "il", "la", "le", "lo", "gli", "e", "ed", "o"]);

/** Most words a query gains: enough for two or three concepts, bounded so the question keeps its weight. */
const MAX_ADDED_WORDS = 12;

/**
 * The regulatory (or lay) wording of the concepts the question names, as extra words for the
 * lexical query; words the question already has are not repeated. Empty when nothing matches.
 */
export function thesaurusExpansion(query: string): string[] {
  const queryStems = stems(query);
  const have = new Set(queryStems);
  const matched = new Set<number>();
  for (const entry of ENTRIES) if (contains(queryStems, entry.stems)) matched.add(entry.group);
  const added: string[] = [];
  const seen = new Set<string>();
  for (const group of matched) {
    for (const phrase of GROUPS[group] ?? []) {
      for (const word of tokenize(phrase)) {
        const s = stem(word);
        if (have.has(s) || seen.has(s) || word.length < 2 || isStopword(word) || ITALIAN_FUNCTION_WORDS.has(word)) continue;
        seen.add(s);
        added.push(word);
      }
    }
  }
  return added.slice(0, MAX_ADDED_WORDS);
}
