import { beforeAll, describe, expect, it } from "vitest";
import { createEnglishNlp, findObligations } from "../../core/extract/obligations.ts";
import type { EnglishNlp } from "../../core/extract/obligations.ts";
import { findDeadlines } from "../../core/extract/deadlines.ts";

// Sentences from GDPR Art. 33/34 (OJ plaintext), DORA Art. 19 (OJ PDF), 45 CFR 164.502, NIST
// SP 800-171r2 and the Mauriziano disciplinare (D.Lgs. 36/2023); a few short Italian ones are
// typical tender clauses written for the test.

let nlp: EnglishNlp;
beforeAll(() => {
  nlp = createEnglishNlp();
});

type Row = [sentence: string, subject: string, predicate: string, object: string, modality: string, deadline: string | undefined];
/** English rows also name the party told (verbs of telling), "" when none. */
type EnRow = [...Row, recipient: string];

const en: EnRow[] = [
  [
    "In the case of a personal data breach, the controller shall without undue delay and, where feasible, not later than 72 hours after having become aware of it, notify the personal data breach to the supervisory authority competent in accordance with Article 55, unless the personal data breach is unlikely to result in a risk to the rights and freedoms of natural persons.",
    "controller",
    "shall notify",
    "personal data breach",
    "must",
    "without undue delay; not later than 72 hours",
    "supervisory authority",
  ],
  [
    "The processor shall notify the controller without undue delay after becoming aware of a personal data breach.",
    "processor",
    "shall notify",
    "",
    "must",
    "without undue delay",
    "controller",
  ],
  [
    "When the personal data breach is likely to result in a high risk to the rights and freedoms of natural persons, the controller shall communicate the personal data breach to the data subject without undue delay.",
    "controller",
    "shall communicate",
    "personal data breach",
    "must",
    "without undue delay",
    "data subject",
  ],
  [
    "The controller shall document any personal data breaches, comprising the facts relating to the personal data breach, its effects and the remedial action taken.",
    "controller",
    "shall document",
    "any personal data breaches",
    "must",
    undefined,
    "",
  ],
  [
    "Financial entities shall report major ICT-related incidents to the relevant competent authority as referred to in Article 46 in accordance with paragraph 4 of this Article.",
    "Financial entities",
    "shall report",
    "major ICT-related incidents",
    "must",
    undefined,
    "relevant competent authority",
  ],
  [
    "Where a major ICT-related incident occurs and has an impact on the financial interests of clients, financial entities shall, without undue delay as soon as they become aware of it, inform their clients about the major ICT-related incident and about the measures that have been taken to mitigate the adverse effects of such incident.",
    "financial entities",
    "shall inform",
    "major ICT-related incident",
    "must",
    "without undue delay",
    "their clients",
  ],
  [
    "Financial entities may, on a voluntary basis, notify significant cyber threats to the relevant competent authority when they deem the threat to be of relevance to the financial system, service users or clients.",
    "Financial entities",
    "may notify",
    "significant cyber threats",
    "may",
    undefined,
    "relevant competent authority",
  ],
  [
    "Credit institutions classified as significant, in accordance with Article 6(4) of Regulation (EU) No 1024/2013, shall report major ICT-related incidents to the relevant national competent authority designated in accordance with Article 4 of Directive 2013/36/EU.",
    "Credit institutions",
    "shall report",
    "major ICT-related incidents",
    "must",
    undefined,
    "relevant national competent authority",
  ],
  [
    "A covered entity or business associate may not use or disclose protected health information, except as permitted or required by this subpart.",
    "covered entity",
    "may not use or disclose",
    "protected health information",
    "must not",
    undefined,
    "",
  ],
  [
    "The communication to the data subject referred to in paragraph 1 shall not be required if any of the following conditions are met:",
    "communication",
    "shall not be required",
    "",
    "must not",
    undefined,
    "",
  ],
  [
    "Organizations should review and update the audit logs at least annually.",
    "Organizations",
    "should review and update",
    "audit logs",
    "should",
    "at least annually",
    "",
  ],
  [
    "The controller shall provide information on action taken on a request under Articles 15 to 22 to the data subject without undue delay and in any event within one month of receipt of the request.",
    "controller",
    "shall provide",
    "information",
    "must",
    "without undue delay; within one month of receipt of the request",
    "data subject",
  ],
];

describe("findObligations (English)", () => {
  it.each(en)("%s", (sentence, subject, predicate, object, modality, deadline, recipient) => {
    const [o] = findObligations(sentence, { language: "en", nlp });
    expect(o).toBeDefined();
    expect({
      subject: o?.subject,
      predicate: o?.predicate,
      object: o?.object,
      modality: o?.modality,
      deadline: o?.deadline,
      recipient: o?.recipient ?? "",
    }).toEqual({
      subject,
      predicate,
      object,
      modality,
      deadline,
      recipient,
    });
    expect(sentence.slice(o?.span.start, o?.span.end)).toBe(o?.sentence);
  });

  it("binds every party of a coordinated subject, and the antecedent of a relative", () => {
    const a = findObligations("The controller and the processor shall designate a data protection officer.", { nlp });
    expect(a.map((o) => o.subject)).toEqual(["controller", "processor"]);
    const b = findObligations(
      "The ICT third-party service provider shall submit a reasoned application to EBA, ESMA or EIOPA, which, through the Joint Committee, shall decide whether to designate it.",
      { nlp },
    );
    expect(b.filter((o) => o.predicate === "shall decide").map((o) => o.subject)).toEqual(["EBA", "ESMA", "EIOPA"]);
  });

  it("hands a 'must:' lead-in to the imperative items of its list, and an addressee to imperative requirements", () => {
    const lead = findObligations(
      "A covered entity must, in accordance with § 164.306:\n(1)(i) Standard: Security management process. Implement policies and procedures to prevent, detect, contain, and correct security violations.",
      { nlp },
    );
    expect(lead).toEqual([
      expect.objectContaining({ subject: "covered entity", predicate: "must implement", object: "policies and procedures", implicit: true }),
    ]);
    const requirement = findObligations("Limit system access to authorized users, processes acting on behalf of authorized users, and devices.", {
      nlp,
      addressee: "organization",
    });
    expect(requirement[0]).toMatchObject({ subject: "organization", predicate: "must limit", object: "system access", modality: "must", implicit: true });
    // Without an addressee an imperative sentence binds nobody.
    expect(findObligations("Limit system access to authorized users.", { nlp })).toEqual([]);
  });

  it("never takes a gerund clause for a party", () => {
    expect(findObligations("Observing basic cyber hygiene should also avoid imposing heavy costs on the economy.", { nlp })).toEqual([]);
  });

  it("splits sentences, resolves 'it' to the previous subject and keeps spans", () => {
    const text =
      "1.   In the case of a personal data breach, the controller shall without undue delay notify the personal data breach to the supervisory authority. Where the notification to the supervisory authority is not made within 72 hours, it shall be accompanied by reasons for the delay.";
    const obs = findObligations(text, { nlp });
    expect(obs.map((o) => [o.subject, o.predicate, o.object, o.recipient ?? ""])).toEqual([
      ["controller", "shall notify", "personal data breach", "supervisory authority"],
      ["controller", "shall be accompanied by", "reasons", ""],
    ]);
    expect(text.slice(obs[1]?.span.start, obs[1]?.span.end)).toBe(
      "Where the notification to the supervisory authority is not made within 72 hours, it shall be accompanied by reasons for the delay.",
    );
  });

  it("finds 'is required to' and 'are prohibited from'", () => {
    const a = findObligations("The covered entity is required to retain the documentation for 6 years from the date of its creation.", { nlp });
    expect(a[0]).toMatchObject({ subject: "covered entity", modality: "must", negated: false });
    const b = findObligations("Financial entities are prohibited from entering into contractual arrangements with such providers.", { nlp });
    expect(b[0]).toMatchObject({ subject: "Financial entities", modality: "must not", negated: true });
  });

  it("can drop recommendations", () => {
    expect(findObligations("Organizations should review the audit logs.", { nlp, includeShould: false })).toEqual([]);
  });

  it("ignores sentences without deontic modals", () => {
    const text =
      "This Regulation lays down rules relating to the protection of natural persons with regard to the processing of personal data. In contrast to requirement 3.8.1, which restricts user access to media, this requirement restricts the use of certain types of media on systems.";
    expect(findObligations(text, { nlp })).toEqual([]);
  });
});

const it_: Row[] = [
  [
    "I concorrenti devono essere in possesso, a pena di esclusione, dei requisiti di ordine generale previsti dal Codice.",
    "concorrenti",
    "devono essere",
    "in possesso",
    "must",
    undefined,
  ],
  [
    "In tal caso l'appaltatore non può fare valere il diritto alla risoluzione del contratto.",
    "appaltatore",
    "non può fare valere",
    "diritto alla risoluzione del contratto",
    "must not",
    undefined,
  ],
  [
    "Ai sensi dell’articolo 9 del D.lg.s 36/2023, la stazione appaltante può prevedere clausole di rinegoziazione, specie quando il contratto risulta particolarmente esposto per la sua durata.",
    "stazione appaltante",
    "può prevedere",
    "clausole di rinegoziazione",
    "may",
    undefined,
  ],
  [
    "In tal caso il contraente è tenuto all’esecuzione delle prestazioni oggetto del contratto agli stessi prezzi, patti e condizioni previsti nel contratto.",
    "contraente",
    "è tenuto a",
    "esecuzione delle prestazioni oggetto del contratto agli stessi prezzi",
    "must",
    undefined,
  ],
  [
    "L’aggiudicatario deve presentare la documentazione richiesta entro 10 giorni dalla richiesta.",
    "aggiudicatario",
    "deve presentare",
    "documentazione richiesta",
    "must",
    "entro 10 giorni dalla richiesta",
  ],
  ["È vietata la cessione del contratto, ai sensi dell'art. 119 del Codice.", "", "È vietata", "cessione del contratto", "must not", undefined],
  [
    "Il concorrente è tenuto a trasmettere i documenti entro il termine di 15 giorni dalla comunicazione.",
    "concorrente",
    "è tenuto a trasmettere",
    "documenti",
    "must",
    "entro il termine di 15 giorni dalla comunicazione",
  ],
];

describe("findObligations (Italian, rule-based)", () => {
  it.each(it_)("%s", (sentence, subject, predicate, object, modality, deadline) => {
    const [o] = findObligations(sentence, { language: "it" });
    expect({ subject: o?.subject, predicate: o?.predicate, object: o?.object, modality: o?.modality, deadline: o?.deadline }).toEqual({
      subject,
      predicate,
      object,
      modality,
      deadline,
    });
  });

  it("keeps abbreviations inside one sentence", () => {
    const text = "Ai sensi dell’art. 16 la stazione appaltante può recedere dal contratto. Il fornitore deve comunicare ogni variazione.";
    const obs = findObligations(text, { language: "it" });
    expect(obs.map((o) => o.subject)).toEqual(["stazione appaltante", "fornitore"]);
    expect(text.slice(obs[0]?.span.start, obs[0]?.span.end)).toBe("Ai sensi dell’art. 16 la stazione appaltante può recedere dal contratto.");
  });

  it("ignores sentences without modals", () => {
    expect(findObligations("La stazione appaltante verifica il possesso dei requisiti di ordine generale.", { language: "it" })).toEqual([]);
  });
});

describe("findDeadlines", () => {
  const rows: Array<[string, "en" | "it", string[]]> = [
    ["within 72 hours", "en", ["within 72 hours"]],
    ["no later than 15 days after the request", "en", ["no later than 15 days after the request"]],
    ["within 4 hours from the moment of classification of the ICT-related incident as major", "en", ["within 4 hours from the moment of classification"]],
    ["shall be reviewed at least annually and without undue delay", "en", ["at least annually", "without undue delay"]],
    ["shall immediately transmit that report to the ECB", "en", ["immediately"]],
    ["entro 10 giorni dalla richiesta", "it", ["entro 10 giorni dalla richiesta"]],
    ["entro il termine di 30 giorni naturali e consecutivi", "it", ["entro il termine di 30 giorni naturali e consecutivi"]],
    ["almeno 30 giorni prima della scadenza del contratto", "it", ["almeno 30 giorni prima della scadenza"]],
    ["Regulation (EU) No 806/2014 of 15 July 2014", "en", []],
  ];
  it.each(rows)("%s", (text, lang, expected) => {
    expect(findDeadlines(text, lang)).toEqual(expected);
  });
});
