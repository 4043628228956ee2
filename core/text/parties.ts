// The parties the regulations name: the regulated roles, the authorities over them, the people the
// data is about, as one table read by the question's parties (answer/question/question-parties.ts),
// the party types (extract/party-types.ts) and the answer's "who" and recipient cues
// (answer/compose/answer-cues.ts). Curated from the roles the corpus's instruments impose duties
// on, English and Italian. Adding a party here adds it wherever its fields say.

/**
 * Who a party is, as the regulations themselves class them: the authorities that supervise, the
 * parties the rules bind, the people the data is about, their clients, and other persons named in
 * a role. Typed only where the name says so; anything else stays untyped rather than guessed.
 */
export type PartyType = "authority" | "regulated party" | "data subject" | "client" | "person";

/** Which of a party's forms a field takes: `true` for the canonical name, else the forms listed. */
type FormSelection = true | readonly string[];

export interface Party {
  /** The canonical name first, then plurals, other names, spellings and acronyms. Capitals are matched as written in questions. */
  readonly forms: readonly string[];
  /** What the party is (party-types.ts): given to the canonical name, or to the forms `typed` lists. */
  readonly type?: PartyType;
  readonly typed?: readonly string[];
  /** A question naming any of the forms names the party (question-parties.ts). */
  readonly question?: true;
  /** A sentence naming it says "who" (answer-cues.ts). */
  readonly cue?: FormSelection;
  /** Named after "to the …" it is who receives something (answer-cues.ts). */
  readonly recipient?: FormSelection;
}

// Each field picks its forms one by one: the plural is a cue for "financial entities" but not for
// "controllers", and of "client" only "clients" is a recipient.
export const PARTIES: readonly Party[] = [
  // EU data protection
  { forms: ["controller", "controllers", "data controller"], type: "regulated party", question: true, cue: true, recipient: true },
  { forms: ["joint controller", "joint controllers"], type: "regulated party", question: true },
  { forms: ["processor", "processors", "data processor"], type: "regulated party", question: true, cue: true, recipient: true },
  { forms: ["sub-processor", "sub-processors", "subprocessor", "another processor"], type: "regulated party", question: true },
  { forms: ["data subject", "data subjects"], type: "data subject", question: true, cue: true, recipient: ["data subject", "data subjects"] },
  { forms: ["data protection officer", "data protection officers", "DPO"], type: "person", question: true },
  { forms: ["supervisory authority", "supervisory authorities", "lead supervisory authority"], type: "authority", question: true, cue: true },
  { forms: ["representative", "representatives"], type: "person", question: true },
  { forms: ["recipient", "recipients"], type: "person", question: true },
  { forms: ["natural person"], type: "data subject" },
  { forms: ["European Data Protection Board"], type: "authority" },
  { forms: ["European Data Protection Supervisor"], type: "authority" },
  // EU financial sector (DORA, MiCA, PSD2)
  { forms: ["financial entity", "financial entities"], type: "regulated party", question: true, cue: ["financial entity", "financial entities"] },
  { forms: ["microenterprise", "microenterprises"], type: "regulated party", question: true },
  { forms: ["competent authority", "competent authorities"], type: "authority", question: true, cue: true },
  { forms: ["ICT third-party service provider", "ICT third-party service providers", "ICT third party service provider"], question: true },
  { forms: ["critical ICT third-party service provider", "critical ICT third-party service providers", "CTPP"], question: true },
  { forms: ["lead overseer", "lead overseers"], type: "authority", question: true },
  { forms: ["management body", "management bodies"], type: "regulated party", question: true },
  { forms: ["European Supervisory Authorities", "ESAs", "ESA"], type: "authority", typed: ["ESA"], question: true },
  { forms: ["crypto-asset service provider", "crypto-asset service providers", "CASP"], question: true },
  { forms: ["payment service provider", "payment service providers"], question: true },
  { forms: ["trust service provider", "trust service providers", "qualified trust service provider"], question: true },
  { forms: ["essential entity", "essential entities"], question: true },
  { forms: ["important entity", "important entities"], question: true },
  { forms: ["provider", "providers"], question: true },
  { forms: ["deployer", "deployers"], question: true },
  { forms: ["Member State", "Member States"], type: "authority", question: true },
  { forms: ["Commission", "European Commission"], type: "authority", typed: ["Commission", "European Commission"], question: true, recipient: true },
  // Typed but not asked for: a question's "European Supervisory Authority" is a supervisory authority.
  { forms: ["European Supervisory Authority"], type: "authority" },
  { forms: ["EBA"], type: "authority", recipient: true },
  { forms: ["ESMA"], type: "authority", recipient: true },
  { forms: ["EIOPA"], type: "authority", recipient: true },
  { forms: ["ECB"], type: "authority", recipient: true },
  { forms: ["ENISA"], type: "authority", recipient: true },
  { forms: ["European Parliament"], type: "authority" },
  { forms: ["Parliament"], type: "authority" },
  { forms: ["Council"], type: "authority" },
  { forms: ["Joint Committee"], type: "authority" },
  { forms: ["overseer"], type: "authority" },
  { forms: ["Oversight Forum"], type: "authority" },
  { forms: ["joint oversight network", "JON"], type: "authority", typed: ["joint oversight network", "JON"] },
  { forms: ["joint examination team"], type: "authority" },
  {
    forms: ["computer security incident response team", "CSIRT", "CSIRTs"],
    type: "authority",
    typed: ["computer security incident response team", "CSIRT"],
    recipient: ["CSIRT", "CSIRTs"],
  },
  { forms: ["single point of contact"], type: "authority" },
  { forms: ["credit institution"], type: "regulated party" },
  { forms: ["investment firm"], type: "regulated party" },
  { forms: ["payment institution"], type: "regulated party" },
  { forms: ["electronic money institution"], type: "regulated party" },
  { forms: ["insurance undertaking"], type: "regulated party" },
  { forms: ["reinsurance undertaking"], type: "regulated party" },
  { forms: ["central securities depository", "CSD"], type: "regulated party", typed: ["central securities depository", "CSD"] },
  { forms: ["central counterparty"], type: "regulated party" },
  { forms: ["trading venue"], type: "regulated party" },
  { forms: ["service provider"], type: "regulated party" },
  { forms: ["third-party service provider"], type: "regulated party" },
  { forms: ["undertaking"], type: "regulated party" },
  { forms: ["enterprise"], type: "regulated party" },
  { forms: ["investor"], type: "client" },
  { forms: ["service user"], type: "client" },
  // US (HIPAA, NIST, GLBA)
  {
    forms: ["covered entity", "covered entities"],
    type: "regulated party",
    question: true,
    cue: ["covered entity", "covered entities"],
    recipient: ["covered entity", "covered entities"],
  },
  {
    forms: ["business associate", "business associates"],
    type: "regulated party",
    question: true,
    cue: true,
    recipient: ["business associate", "business associates"],
  },
  { forms: ["subcontractor", "subcontractors"], type: "regulated party", question: true },
  { forms: ["health plan", "health plans"], type: "regulated party", question: true },
  { forms: ["small health plan", "small health plans"], question: true },
  { forms: ["health care provider", "health care providers", "healthcare provider", "healthcare providers"], type: "regulated party", question: true },
  { forms: ["health care clearinghouse", "health care clearinghouses"], type: "regulated party", question: true },
  { forms: ["individual", "individuals"], type: "data subject", question: true, recipient: ["individual", "individuals"] },
  { forms: ["Secretary", "the Secretary", "HHS"], type: "authority", typed: ["Secretary", "HHS"], question: true, cue: true, recipient: true },
  { forms: ["workforce member", "workforce members", "workforce"], type: "person", question: true },
  { forms: ["security official"], type: "person", question: true },
  { forms: ["privacy official"], type: "person", question: true },
  { forms: ["nonfederal organization", "nonfederal organizations", "non-federal organization"], type: "regulated party", question: true },
  { forms: ["federal agency", "federal agencies"], type: "authority", question: true },
  { forms: ["contractor", "contractors"], type: "regulated party", question: true },
  { forms: ["financial institution", "financial institutions"], question: true },
  { forms: ["organization", "organizations", "organisation", "organisations"], type: "regulated party", question: true },
  { forms: ["customer", "customers"], type: "client", question: true },
  { forms: ["consumer", "consumers"], type: "client", question: true },
  { forms: ["hybrid entity"], type: "regulated party" },
  { forms: ["group health plan"], type: "regulated party" },
  { forms: ["covered health care provider"], type: "regulated party" },
  { forms: ["clearinghouse"], type: "regulated party" },
  { forms: ["plan sponsor"], type: "regulated party" },
  { forms: ["patient"], type: "data subject" },
  { forms: ["department"], type: "authority" },
  { forms: ["administrative law judge", "ALJ"], type: "authority", typed: ["administrative law judge", "ALJ"] },
  // Italian procurement and privacy
  {
    forms: ["stazione appaltante", "stazioni appaltanti", "amministrazione aggiudicatrice", "ente appaltante"],
    type: "authority",
    typed: ["stazione appaltante", "amministrazione aggiudicatrice", "ente appaltante"],
    question: true,
    cue: true,
    recipient: true,
  },
  { forms: ["operatore economico", "operatori economici"], type: "regulated party", question: true, cue: true },
  { forms: ["concorrente", "concorrenti", "offerente", "offerenti"], type: "regulated party", typed: ["concorrente", "offerente"], question: true },
  { forms: ["aggiudicatario", "aggiudicataria", "aggiudicatari", "ditta aggiudicataria", "affidatario"], type: "regulated party", question: true },
  { forms: ["appaltatore", "appaltatori", "fornitore", "fornitori"], type: "regulated party", typed: ["appaltatore", "fornitore"], question: true },
  { forms: ["subappaltatore", "subappaltatori"], question: true },
  { forms: ["impresa ausiliaria", "imprese ausiliarie", "ausiliaria"], question: true },
  { forms: ["mandataria", "mandante", "mandanti"], question: true },
  { forms: ["raggruppamento temporaneo", "raggruppamenti temporanei", "RTI"], question: true },
  { forms: ["consorzio", "consorzi"], question: true },
  {
    forms: ["RUP", "responsabile unico del progetto", "responsabile unico del procedimento"],
    type: "authority",
    typed: ["RUP", "responsabile unico del progetto", "responsabile unico del procedimento"],
    question: true,
    cue: true,
    recipient: true,
  },
  { forms: ["commissione giudicatrice", "commissione di gara", "seggio di gara"], type: "authority", question: true },
  { forms: ["ANAC"], type: "authority", question: true, recipient: true },
  { forms: ["titolare del trattamento"], question: true },
  { forms: ["responsabile del trattamento"], question: true },
  { forms: ["interessato", "interessati"], type: "data subject", question: true },
  { forms: ["Garante", "Garante privacy"], question: true },
  { forms: ["contraente"], type: "regulated party" },
  { forms: ["impresa"], type: "regulated party" },
  { forms: ["commissione"], cue: true },
  // Written "autorità" or, without the accent, "autorita".
  { forms: ["autorità", "autorita"], recipient: ["autorità", "autorita"] },
  // Any instrument's authorities, courts, people and persons in a role
  { forms: ["authority", "authorities"], type: "authority", cue: true, recipient: ["authority", "authorities"] },
  { forms: ["agency", "agencies"], type: "authority", recipient: ["agency", "agencies"] },
  { forms: ["supervisor"], recipient: true },
  { forms: ["regulator", "regulators"], recipient: ["regulator", "regulators"] },
  { forms: ["board"], type: "authority" },
  { forms: ["court"], type: "authority" },
  { forms: ["tribunal"], type: "authority" },
  { forms: ["child"], type: "data subject" },
  { forms: ["minor"], type: "data subject" },
  { forms: ["client", "clients"], type: "client", recipient: ["clients"] },
  { forms: ["media"], recipient: true },
  { forms: ["media outlet"], type: "person" },
  { forms: ["prominent media outlet"], type: "person" },
  { forms: ["auditor"], type: "person" },
  { forms: ["tester"], type: "person" },
  { forms: ["independent expert"], type: "person" },
  { forms: ["expert"], type: "person" },
  { forms: ["third party"], type: "person" },
  { forms: ["person"], type: "person" },
  { forms: ["official", "officials"], type: "person", recipient: ["officials"] },
  { forms: ["employee"], type: "person" },
  { forms: ["party"], type: "person" },
  { forms: ["respondent"], type: "person" },
  { forms: ["complainant"], type: "person" },
  { forms: ["petitioner"], type: "person" },
  { forms: ["witness"], type: "person" },
];

/** The forms a field selects from the party: its canonical name for `true`, else the forms listed; none when unset. */
export function formsOf(party: Party, selection: FormSelection | undefined): readonly string[] {
  if (selection === undefined) return [];
  return selection === true ? party.forms.slice(0, 1) : selection;
}
