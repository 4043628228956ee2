// The compliance lexicon: how auditors, privacy officers, risk managers and bidders say a thing
// (`lay`), and how regulations say it (`legal`), in English and Italian. Data, like the instrument
// registry (core/names/instrument-registry.ts); legal-thesaurus.ts matches it against questions.
//
// What belongs here: a word or phrase of everyday or professional speech whose regulatory
// counterpart any regulation of the field could use. Not a question's wording, not a document's
// section. Where the counterpart differs by instrument ("vendor" is an ICT third-party service
// provider under DORA, a business associate under HIPAA, a processor under the GDPR), each sense is
// its own group with `instruments` (registry ids): a question naming an instrument gets that
// instrument's senses, a question naming none gets every sense.

export interface LexiconGroup {
  /** How people say it (matched on light stems, as a run of words). */
  lay: readonly string[];
  /** How regulations say it (added to the query, never replacing a word of it). */
  legal: readonly string[];
  /** Registry ids of the instruments this sense belongs to; absent: every instrument. */
  instruments?: readonly string[];
}

const g = (lay: readonly string[], legal: readonly string[], instruments?: readonly string[]): LexiconGroup =>
  instruments === undefined ? { lay, legal } : { lay, legal, instruments };

const DORA = ["eu-dora", "eu-dora-rts-ict-risk", "eu-dora-rts-incident-classification", "eu-dora-rts-ict-services-policy", "eu-dora-its-register"];
const GDPR = ["eu-gdpr", "uk-gdpr", "uk-dpa-2018", "it-codice-privacy"];
const HIPAA = ["us-hipaa", "us-hipaa-privacy-rule", "us-hipaa-security-rule", "us-hipaa-breach-rule", "us-nist-sp-800-66"];

export const COMPLIANCE_LEXICON: readonly LexiconGroup[] = [
  // ---- who: parties ----
  g(
    ["bank", "banks", "payments firm", "payment firm", "insurer", "insurers", "investment firm", "investment firms"],
    ["financial entity", "credit institution"],
  ),
  g(["micro firm", "micro company", "micro business", "very small firm"], ["microenterprise"]),
  g(["cloud provider", "cloud providers", "cloud vendor", "it vendor", "tech provider"], ["ict third-party service provider"]),
  g(["vendor", "vendors", "supplier", "suppliers", "outsourcer", "outsourcers"], ["ict third-party service provider"], DORA),
  g(["vendor", "vendors", "supplier", "suppliers", "contractor", "contractors", "outsourcer"], ["business associate"], HIPAA),
  g(["vendor", "vendors", "supplier", "suppliers", "outsourcer", "outsourcers"], ["processor"], GDPR),
  g(["subcontractor", "subcontractors", "sub-contractor"], ["another processor", "sub-processor"], GDPR),
  g(["subcontractor", "subcontractors", "subcontracting", "subcontract"], ["subcontracting", "subappalto"]),
  // Not a capitalised "Regulator": some rulebooks (ADGM's FSRA) call their authority exactly that (see legal-thesaurus.ts).
  g(
    ["regulator", "regulators", "watchdog", "supervisor", "supervisors", "privacy regulator", "data protection regulator"],
    ["competent authority", "supervisory authority"],
  ),
  g(["fbi", "police", "law enforcement", "investigators"], ["law enforcement official"]),
  g(["privacy officer", "dpo"], ["data protection officer"], GDPR),
  g(["privacy officer"], ["privacy official"], HIPAA),
  g(["security lead", "security officer", "ciso", "head of security"], ["security official"]),
  g(["hospital", "clinic", "doctor", "hospitals", "clinics"], ["covered entity", "health care provider"]),
  g(["board of directors", "the board", "senior management", "top management", "leadership", "executives"], ["management body", "senior management"]),
  g(["customer", "customers", "client", "clients", "affected person", "affected people", "each person"], ["data subject"], GDPR),
  g(["patient", "patients", "affected person", "affected people", "each person"], ["individual"], HIPAA),
  g(["staff", "staffers", "headcount"], ["persons", "workforce", "personnel"]),
  g(["guest", "guests", "outsider", "outsiders"], ["visitors"]),
  g(["kid", "kids", "underage", "minor"], ["child"]),
  g(["jet", "jets", "aircraft"], ["airplanes"]),
  g(["tv", "television", "tv station", "tv stations", "newspaper", "newspapers", "radio", "news outlets", "the news"], ["media outlets", "media"]),

  // ---- what: events and things ----
  g(
    ["data leak", "leaked data", "data leaked", "hacked data", "leak", "leaks", "leaked", "exposed", "exposure", "compromised"],
    ["breach", "personal data breach"],
  ),
  g(["cyber attack", "cyberattack", "hacker attack", "hack", "hacked", "cyber incident", "cyber incidents"], ["ict-related incident", "cyber threat"]),
  g(["outage", "outages", "downtime", "system failure", "systems failure", "it failure"], ["disruption", "ict-related incident"]),
  g(["breaks down", "break down", "stops working", "goes down", "crash", "crashes"], ["failure"]),
  g(["customer data", "client data", "user data", "customer files", "customer records"], ["personal data"]),
  g(
    ["health data", "medical records", "patient data", "medical data", "patient records", "patient files", "patient file", "health records", "chart", "charts"],
    ["protected health information"],
  ),
  g(["hr files", "hr records", "personnel file", "personnel files", "staff files"], ["employment records"]),
  g(
    ["defence data", "defense data", "defence drawings", "defense drawings", "controlled data", "federal data"],
    ["controlled unclassified information", "cui"],
  ),
  g(
    ["pc", "pcs", "computer", "computers", "laptop", "laptops", "hard drive", "hard drives", "disk", "disks", "copier", "copiers"],
    ["media", "electronic media"],
  ),
  g(["outdated", "obsolete", "unsupported", "no longer supports", "no longer supported", "legacy"], ["legacy", "end-of-life"]),
  g(["information technology", "it systems", "it service", "it services", "it providers", "it outsourcing"], ["ict"]),
  g(["inventory of data", "data inventory", "data map", "register of processing"], ["records of processing activities"], GDPR),
  g(["privacy impact assessment", "pia", "dpia"], ["data protection impact assessment"]),
  g(["cctv", "video surveillance", "camera surveillance", "security cameras"], ["monitoring", "publicly accessible area"]),
  g(["risk review", "risk reviews", "risk analysis"], ["risk assessment"]),
  g(["incident process", "incident response", "incident plan", "incident management"], ["incident handling"]),
  g(["pen test", "pentest", "pen testing", "red team", "red-team"], ["threat-led penetration testing", "penetration testing"]),
  g(["vendor contract", "supplier contract", "outsourcing contract", "outsourcing contracts"], ["contractual arrangements"]),
  g(["exit plan"], ["exit strategy", "termination of contractual arrangements"]),
  g(["backup", "backups", "back up"], ["data backup plan"]),
  g(
    ["disaster recovery", "disaster-recovery", "continuity plan", "continuity plans"],
    ["business continuity", "contingency plan", "response and recovery plans"],
  ),
  g(["login", "log in", "logon", "sign in"], ["identification and authentication"]),
  g(["two-factor", "2fa", "mfa"], ["multifactor authentication"]),
  g(["password", "passwords"], ["authenticator"]),
  g(["usb stick", "usb drive", "thumb drive", "external drive"], ["removable media", "portable storage device"]),
  g(["patch", "patches", "patching"], ["flaw remediation"]),
  g(["activity logs", "audit trail", "log files", "log capture", "logging"], ["audit record", "audit logging"]),
  g(["alarm", "alarms", "warning light", "cockpit warning"], ["alert"]),
  g(["flood", "floods", "fire", "storm", "non-deliberate", "accidental event"], ["non-adversarial", "environmental"]),
  g(["hosted", "hosting", "data centre", "data center"], ["location", "storage location", "processed"]),
  g(["fines", "fine", "fined"], ["administrative fine", "penalty", "civil money penalty"]),
  g(["wilful", "willful", "deliberate", "on purpose"], ["willful neglect"]),
  g(["escape a fine", "avoid a fine", "escape a penalty", "avoid a penalty", "let off"], ["affirmative defense", "waiver"]),
  g(["credentials", "qualifications", "accredited"], ["certified", "accreditation", "expertise"]),
  g(["factors", "yardsticks"], ["criteria"]),
  g(["automated decisions", "algorithm decides"], ["automated individual decision-making", "profiling"]),
  g(["ferry permit", "ferry flight"], ["special flight permit"]),

  // ---- IT security as people say it (the controls' own words on the right) ----
  g(["antivirus", "anti-virus", "virus", "viruses", "malware", "ransomware"], ["malicious code"]),
  g(["firewall", "firewalls"], ["boundary protection", "boundaries"]),
  g(["wifi", "wi-fi"], ["wireless access", "wireless"]),
  g(["smartphone", "smartphones", "mobile phone", "mobile phones", "tablet", "tablets"], ["mobile devices"]),
  g(["personal devices", "own devices", "byod"], ["mobile devices", "external systems"]),
  g(
    ["work from home", "working from home", "home working", "remote work", "remote working", "telework", "teleworking"],
    ["remote access", "alternate work sites"],
  ),
  g(["background check", "background checks", "vetting", "vetted"], ["screen individuals", "personnel screening"]),
  g(["shred", "shredded", "shredding", "wipe", "wiped", "wiping"], ["sanitize", "destroy", "disposal"]),
  g(["security training", "staff training", "phishing training", "awareness training"], ["security awareness", "training"]),
  g(["admin accounts", "admin rights", "administrator accounts", "superuser", "root access"], ["privileged accounts", "privileged functions"]),
  g(["access rights", "user permissions"], ["access control", "privileges", "least privilege"]),
  g(["screen lock", "lock screen", "screensaver", "screen saver"], ["session lock", "pattern-hiding displays"]),
  g(["visitor log", "visitor logs", "sign-in sheet", "badge logs"], ["physical access", "audit logs"]),
  g(["threat intelligence", "threat intel"], ["cyber threat information", "information-sharing arrangements"]),
  g(["critical systems", "critical services", "key services"], ["critical or important functions"], DORA),
  g(["dormant", "unused", "stale", "idle"], ["inactivity", "inactive"]),
  g(
    ["resigns", "resigned", "resignation", "quits", "leaves the company", "leavers", "moved to another", "reassigned"],
    ["termination", "terminations", "transfers"],
  ),
  g(["homes", "at home", "kitchen", "kitchens", "home office"], ["alternate work sites"]),
  g(["cycle back", "use again", "used before", "previous password", "old password"], ["reuse", "generations"]),
  g(["nobody owns", "no owner", "unowned", "nobody claims", "ownerless"], ["identifiable owner"]),

  // ---- privacy as people say it ----
  g(["personal information", "personal info", "pii", "personally identifiable information"], ["personal data"], GDPR),
  g(
    ["personal information", "personal info", "pii", "personally identifiable information"],
    ["individually identifiable health information", "protected health information"],
    HIPAA,
  ),
  g(["privacy notice", "privacy policy", "privacy statement"], ["information to be provided", "transparent information"], GDPR),
  g(["privacy notice", "privacy policy", "privacy statement"], ["notice of privacy practices"], HIPAA),
  g(["consent form", "patient permission", "signed permission"], ["authorization"], HIPAA),
  g(["copy of their data", "copy of my data", "copy of her records", "copy of his records", "copy of their records"], ["right of access", "access"]),
  g(["check flight", "test flight"], ["operational readiness flight"]),

  // ---- doing: verbs of compliance ----
  g(["tell", "warn", "let know", "write to", "inform"], ["notify", "communicate"]),
  g(["grade", "grading", "how serious", "severity", "rate the severity"], ["classify", "classification"]),
  g(["rehearse", "rehearsal", "drill", "drills", "dry run"], ["test", "testing"]),
  g(["spokesperson", "press", "media enquiries", "public relations"], ["communication", "public", "communication strategy"]),
  g(
    ["delete my data", "delete personal data", "delete the data", "delete all the data", "delete data", "remove my data"],
    ["erasure", "right to be forgotten"],
  ),
  g(["move data abroad", "send data abroad", "data abroad", "outside the eu", "outside europe"], ["transfer to a third country"]),
  g(["move their data", "take their data", "move their account", "export their data"], ["data portability"]),
  g(["sack", "sacked", "fire her", "fire him", "dismiss", "let go"], ["dismissed", "penalised"]),
  g(["shared", "share with", "sharing"], ["disclosure", "disclosures"]),
  g(["charge", "pay", "cost us"], ["fee", "without charge"]),
  g(["hold off", "postpone", "put off"], ["delay"]),
  g(["verbal", "by phone", "over the phone", "phone call"], ["orally", "oral statement"]),
  g(["correct", "corrected", "correction", "wrong", "inaccurate"], ["amend", "amendment"]),
  g(
    ["sign out", "signs out", "sign users out", "log out", "logout", "log off", "time out", "timeout", "walk away"],
    ["automatic logoff", "session", "inactivity"],
  ),
  g(
    ["scrap", "scrapped", "throw out", "throw away", "discard", "discarded", "retire", "retiring", "recycle", "recycling"],
    ["disposal", "dispose", "sanitize", "destroy"],
  ),
  g(["handed to", "hand on", "hand over", "repurpose", "redeploy", "reuse", "recycle", "recycling"], ["re-use", "reuse", "release"]),
  g(["someone with them", "accompany", "accompanied", "chaperone"], ["escort"]),
  g(["groundwork", "kick off", "kicking off", "get ready"], ["prepare", "preparation"]),
  g(["sign-off", "signoff", "permission"], ["approval"]),

  // ---- public procurement (Italian and English) ----
  g(["tender", "call for tenders", "gara", "gare"], ["procedura di gara", "appalto"]),
  g(["scadenza", "entro quando", "deadline", "fino a che giorno", "fino a quando"], ["termine", "entro e non oltre"]),
  g(["fornitore", "fornitori", "ditta", "ditte", "impresa", "imprese"], ["operatore economico", "concorrente"]),
  g(["cauzione", "bid bond", "bid deposit", "tender deposit", "provisional guarantee"], ["garanzia provvisoria"]),
  g(["performance bond", "performance guarantee", "final guarantee"], ["garanzia definitiva"]),
  g(["bid", "bids", "bidder", "bidders"], ["offerta", "concorrente"]),
  g(["contract award", "awarded the contract", "award the contract"], ["aggiudicazione"]),
  g(["in deposito", "conto deposito"], ["conto deposito"]),
  g(
    ["requisiti per partecipare", "chi può partecipare", "partecipare alla gara"],
    ["requisiti di partecipazione", "requisiti di ordine speciale", "condizioni di partecipazione"],
  ),
  g(["vincitore", "vince la gara", "chi vince"], ["aggiudicazione"]),
  g(["escluso", "esclusi", "esclusione"], ["cause di esclusione"]),
  // Not "ente": its light stem is that of "entity".
  g(["ospedale", "committente", "l'ente"], ["stazione appaltante"]),
  g(["quesiti", "quesito", "domande"], ["chiarimenti"]),
  g(["aggiornati", "aggiornamento dei prezzi", "adeguamento prezzi", "adeguamento dei prezzi"], ["revisione prezzi"]),
  g(["quanto vale", "valore totale", "valore complessivo"], ["valore globale stimato"]),
  g(["assicurazione", "rc verso terzi", "rct"], ["polizza assicurativa", "responsabilità civile"]),
  g(["vita residua", "durata residua"], ["validità"]),
  g(["multa", "multe", "sanzione", "sanzioni", "quanto ci costa"], ["penali", "penalità", "inadempimenti"]),
  g(["tardiamo", "tardare", "in ritardo"], ["ritardo"]),
  g(["rimpiazzare", "rimpiazzo", "sostituire"], ["reintegro", "sostituzione"]),
];
