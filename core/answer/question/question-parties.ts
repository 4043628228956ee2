import { foldAccents } from "../../names/instrument-names.ts";

// The regulated parties a question names ("controller", "financial entity", "covered entity",
// "stazione appaltante"), in the canonical form the answer looks for. Curated from the roles the
// corpus's instruments impose duties on; each entry lists its plural and other spellings.
// Overlapping matches keep the longest ("critical ICT third-party service provider" is not also
// "ICT third-party service provider").

const PARTIES: ReadonlyArray<readonly string[]> = [
  // EU data protection
  ["controller", "controllers", "data controller"],
  ["joint controller", "joint controllers"],
  ["processor", "processors", "data processor"],
  ["sub-processor", "sub-processors", "subprocessor", "another processor"],
  ["data subject", "data subjects"],
  ["data protection officer", "data protection officers", "DPO"],
  ["supervisory authority", "supervisory authorities", "lead supervisory authority"],
  ["representative", "representatives"],
  ["recipient", "recipients"],
  // EU financial sector (DORA, MiCA, PSD2)
  ["financial entity", "financial entities"],
  ["microenterprise", "microenterprises"],
  ["competent authority", "competent authorities"],
  ["ICT third-party service provider", "ICT third-party service providers", "ICT third party service provider"],
  ["critical ICT third-party service provider", "critical ICT third-party service providers", "CTPP"],
  ["lead overseer", "lead overseers"],
  ["management body", "management bodies"],
  ["European Supervisory Authorities", "ESAs", "ESA"],
  ["crypto-asset service provider", "crypto-asset service providers", "CASP"],
  ["payment service provider", "payment service providers"],
  ["trust service provider", "trust service providers", "qualified trust service provider"],
  ["essential entity", "essential entities"],
  ["important entity", "important entities"],
  ["provider", "providers"],
  ["deployer", "deployers"],
  ["Member State", "Member States"],
  ["Commission", "European Commission"],
  // US (HIPAA, NIST, GLBA)
  ["covered entity", "covered entities"],
  ["business associate", "business associates"],
  ["subcontractor", "subcontractors"],
  ["health plan", "health plans"],
  ["small health plan", "small health plans"],
  ["health care provider", "health care providers", "healthcare provider", "healthcare providers"],
  ["health care clearinghouse", "health care clearinghouses"],
  ["individual", "individuals"],
  ["Secretary", "the Secretary", "HHS"],
  ["workforce member", "workforce members", "workforce"],
  ["security official"],
  ["privacy official"],
  ["nonfederal organization", "nonfederal organizations", "non-federal organization"],
  ["federal agency", "federal agencies"],
  ["contractor", "contractors"],
  ["financial institution", "financial institutions"],
  ["organization", "organizations", "organisation", "organisations"],
  ["customer", "customers"],
  ["consumer", "consumers"],
  // Italian procurement and privacy
  ["stazione appaltante", "stazioni appaltanti", "amministrazione aggiudicatrice", "ente appaltante"],
  ["operatore economico", "operatori economici"],
  ["concorrente", "concorrenti", "offerente", "offerenti"],
  ["aggiudicatario", "aggiudicataria", "aggiudicatari", "ditta aggiudicataria", "affidatario"],
  ["appaltatore", "appaltatori", "fornitore", "fornitori"],
  ["subappaltatore", "subappaltatori"],
  ["impresa ausiliaria", "imprese ausiliarie", "ausiliaria"],
  ["mandataria", "mandante", "mandanti"],
  ["raggruppamento temporaneo", "raggruppamenti temporanei", "RTI"],
  ["consorzio", "consorzi"],
  ["RUP", "responsabile unico del progetto", "responsabile unico del procedimento"],
  ["commissione giudicatrice", "commissione di gara", "seggio di gara"],
  ["ANAC"],
  ["titolare del trattamento"],
  ["responsabile del trattamento"],
  ["interessato", "interessati"],
  ["Garante", "Garante privacy"],
];

interface PartyPattern {
  canonical: string;
  re: RegExp;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[- ]/g, "[- ]");
}

/**
 * Acronyms and capitalised names ("DPO", "Member State", "Commission") are matched in their case;
 * roles in any case. Word edges are ASCII (the text's accents are folded first): `\p{L}` classes
 * made V8 spend seconds compiling a hundred patterns at the first question (measured).
 */
const PATTERNS: PartyPattern[] = PARTIES.flatMap(([canonical = "", ...variants]) =>
  [canonical, ...variants].map((form) => ({
    canonical,
    re: new RegExp(`(?<![A-Za-z0-9])${escape(form)}(?![A-Za-z0-9])`, /\p{Lu}/u.test(form) ? "g" : "gi"),
  })),
);

/** Canonical parties the question names, in order of appearance. */
export function questionParties(question: string): string[] {
  const found: Array<{ canonical: string; start: number; end: number }> = [];
  // Accents folded in place (one character each), so "responsabilità" ends at a word edge.
  const text = foldAccents(question);
  for (const { canonical, re } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) found.push({ canonical, start: m.index, end: m.index + m[0].length });
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: typeof found = [];
  for (const f of found) if (!kept.some((k) => f.start < k.end && k.start < f.end)) kept.push(f);
  kept.sort((a, b) => a.start - b.start);
  return [...new Set(kept.map((k) => k.canonical))];
}
