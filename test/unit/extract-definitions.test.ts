import { describe, expect, it } from "vitest";
import { acronymMap, findAcronyms, findDefinitions } from "../../core/extract/definitions.ts";

// Excerpts of GDPR Art. 4 (OJ plaintext layout: numbers on their own lines), DORA Art. 3 (OJ PDF
// layout, wrapped lines), 45 CFR 160.103, D.Lgs. 36/2023 and the Mauriziano disciplinare.

const GDPR_ART4 = `For the purposes of this Regulation:

(1)

‘personal data’ means any information relating to an identified or identifiable natural person (‘data subject’); an identifiable natural person is one who can be identified, directly or indirectly, in particular by reference to an identifier such as a name, an identification number, location data, an online identifier or to one or more factors specific to the physical, physiological, genetic, mental, economic, cultural or social identity of that natural person;

(2)

‘processing’ means any operation or set of operations which is performed on personal data or on sets of personal data, whether or not by automated means, such as collection, recording, organisation, structuring, storage, adaptation or alteration, retrieval, consultation, use, disclosure by transmission, dissemination or otherwise making available, alignment or combination, restriction, erasure or destruction;

(3)

‘restriction of processing’ means the marking of stored personal data with the aim of limiting their processing in the future;`;

const DORA_ART3 = `For the purposes of this Regulation, the following definitions shall apply:
(1) ‘digital operational resilience’ means the ability of a financial entity to build, assure and review its operational integrity
and reliability by ensuring, either directly or indirectly through the use of services provided by ICT third-party service
providers, the full range of ICT-related capabilities needed to address the security of the network and information
systems which a financial entity uses, and which support the continued provision of financial services and their
quality, including throughout disruptions;
(2) ‘network and information system’ means a network and information system as defined in Article 6, point 1, of
Directive (EU) 2022/2555;
(16) ‘vulnerability’ means a weakness, susceptibility or flaw of an asset, system, process or control that can be exploited;
(17) ‘threat-led penetration testing (TLPT)’ means a framework that mimics the tactics, techniques and procedures of real-
life threat actors perceived as posing a genuine cyber threat, that delivers a controlled, bespoke, intelligence-led (red
team) test of the financial entity’s critical live production systems;
(19) ‘ICT third-party service provider’ means an undertaking providing ICT services;`;

const HIPAA_160_103 = `Compliance date means the date by which a covered entity or business associate must comply with a standard, implementation specification, requirement, or modification adopted under this subchapter.
Covered entity means:
(1) A health plan.
(2) A health care clearinghouse.
(3) A health care provider who transmits any health information in electronic form in connection with a transaction covered by this subchapter.
Disclosure means the release, transfer, provision of access to, or divulging in any manner of information outside the entity holding the information.`;

describe("findDefinitions (English)", () => {
  it("reads GDPR Article 4 with curly quotes and numbered paragraphs", () => {
    const defs = findDefinitions(GDPR_ART4, "en");
    expect(defs.map((d) => d.term)).toEqual(["personal data", "processing", "restriction of processing"]);
    expect(defs[0]?.definition.startsWith("any information relating to an identified or identifiable natural person (‘data subject’); an identifiable")).toBe(
      true,
    );
    expect(defs[0]?.definition.endsWith("social identity of that natural person")).toBe(true);
    expect(defs[2]?.definition).toBe("the marking of stored personal data with the aim of limiting their processing in the future");
    const span = defs[1]?.span;
    expect(GDPR_ART4.slice(span?.start, span?.end).startsWith("‘processing’ means")).toBe(true);
  });

  it("reads DORA Article 3 across wrapped lines and strips the acronym from the term", () => {
    const defs = findDefinitions(DORA_ART3, "en");
    expect(defs.map((d) => d.term)).toEqual([
      "digital operational resilience",
      "network and information system",
      "vulnerability",
      "threat-led penetration testing",
      "ICT third-party service provider",
    ]);
    expect(defs[1]?.definition).toBe("a network and information system as defined in Article 6, point 1, of Directive (EU) 2022/2555");
    expect(defs[4]?.normalizedTerm).toBe("ict third-party service provider");
    expect(defs[0]?.definition.endsWith("including throughout disruptions")).toBe(true);
  });

  it("reads unquoted CFR definitions, including a 'means:' list", () => {
    const defs = findDefinitions(HIPAA_160_103, "en");
    expect(defs.map((d) => d.term)).toEqual(["Compliance date", "Covered entity", "Disclosure"]);
    expect(defs[1]?.definition).toBe(
      "(1) A health plan. (2) A health care clearinghouse. (3) A health care provider who transmits any health information in electronic form in connection with a transaction covered by this subchapter.",
    );
    expect(defs[1]?.normalizedTerm).toBe("covered entity");
  });

  it("reads 'Term: (1) …' CFR definitions only inside a definitions list", () => {
    const list = `Except as otherwise provided, the following definitions apply to this subchapter:
ALJ means Administrative Law Judge.
Business associate: (1) Except as provided in paragraph (4) of this definition, business associate means, with respect to a covered entity, a person who:
(i) On behalf of such covered entity creates, receives, maintains, or transmits protected health information; or
(ii) Provides legal, actuarial, accounting or consulting services to or for such covered entity.
(2) A covered entity may be a business associate of another covered entity.
Note: (1) a note is not a term.
Breach means the acquisition, access, use, or disclosure of protected health information.`;
    const defs = findDefinitions(list, "en");
    expect(defs.map((d) => d.term)).toEqual(["ALJ", "Business associate", "Breach"]);
    expect(defs[1]?.normalizedTerm).toBe("business associate");
    expect(defs[1]?.definition).toMatch(/^\(1\) Except as provided .* another covered entity\.$/);
    // The same shape in running text is a heading followed by a list, not a definition.
    expect(findDefinitions("Implementation specifications: (a) Risk analysis (Required).", "en")).toEqual([]);
  });

  it("accepts 'the term X refers to' only with a quoted term", () => {
    expect(findDefinitions("The term “system component” refers to a discrete identifiable information technology asset.", "en").map((d) => d.term)).toEqual([
      "system component",
    ]);
    expect(findDefinitions("This requirement refers to the use of portable storage devices.", "en")).toEqual([]);
  });

  it("does not treat prose as definitions", () => {
    const prose = [
      'The Regulator considers that "appropriate measures" in Rule 4.5.7 may include the maintenance of a training log.',
      "This means that the controller shall be able to demonstrate compliance.",
      "For example, organizations may determine that systems must have the capability to log every file access.",
      "It means little in practice.",
    ];
    for (const p of prose) expect(findDefinitions(p, "en")).toEqual([]);
  });
});

describe("findDefinitions (Italian)", () => {
  it("reads «term»: definitions in a lettered list", () => {
    const text = `2. Ai fini del codice e fatto salvo quanto previsto dal decreto legislativo 22 luglio 1999, n. 261 si intende per:
a) «invio postale»: un invio indirizzato nella forma definitiva al momento in cui è preso in consegna;
b) «servizi postali»: servizi consistenti in raccolta, smistamento, trasporto e distribuzione di invii postali;`;
    const defs = findDefinitions(text, "it");
    expect(defs.map((d) => [d.term, d.definition])).toEqual([
      ["invio postale", "un invio indirizzato nella forma definitiva al momento in cui è preso in consegna"],
      ["servizi postali", "servizi consistenti in raccolta, smistamento, trasporto e distribuzione di invii postali"],
    ]);
  });

  it("reads 'per X si intende' and 'si intende per «X»'", () => {
    const a = findDefinitions(
      "Per rischio dal lato della domanda si intende il rischio associato alla domanda effettiva di lavori o servizi che sono oggetto del contratto. Altro testo.",
      "it",
    );
    expect(a.map((d) => [d.term, d.definition])).toEqual([
      ["rischio dal lato della domanda", "il rischio associato alla domanda effettiva di lavori o servizi che sono oggetto del contratto."],
    ]);
    const b = findDefinitions(
      "Ai fini del presente disciplinare si intende per «operatore economico» qualsiasi persona o ente che offra sul mercato la prestazione di servizi.",
      "it",
    );
    expect(b.map((d) => d.term)).toEqual(["operatore economico"]);
    const c = findDefinitions('Per "offerta anomala" si intende l\'offerta il cui prezzo appare anormalmente basso.', "it");
    expect(c.map((d) => d.term)).toEqual(["offerta anomala"]);
  });

  it("ignores procedural 'si intende' that defines nothing", () => {
    expect(findDefinitions("Decorso tale termine, il contratto si intende approvato.", "it")).toEqual([]);
    expect(findDefinitions("Vista la legge 21 giugno 2022, n. 78, recante «Delega al Governo in materia di contratti pubblici»;", "it")).toEqual([]);
  });
});

describe("findAcronyms", () => {
  const rows: Array<[string, string, string]> = [
    ["The protection of Controlled Unclassified Information (CUI) resident in nonfederal systems", "CUI", "Controlled Unclassified Information"],
    ["the use of information and communication technology (ICT) by financial entities", "ICT", "information and communication technology"],
    ["‘threat-led penetration testing (TLPT)’ means a framework", "TLPT", "threat-led penetration testing"],
    ["accedendo al fascicolo virtuale dell’operatore economico (di seguito: FVOE).", "FVOE", "fascicolo virtuale dell’operatore economico"],
    ["Autorità nazionale anticorruzione (ANAC)", "ANAC", "Autorità nazionale anticorruzione"],
  ];
  it.each(rows)("%s", (text, acronym, expansion) => {
    const found = findAcronyms(text);
    expect(found.map((a) => [a.acronym, a.expansion])).toEqual([[acronym, expansion]]);
  });

  it("rejects parentheses that are not acronyms of the preceding words", () => {
    expect(findAcronyms("approved by the Board (EU) in 2020")).toEqual([]);
    expect(findAcronyms("di cui al regolamento (CE) n. 1370/2007")).toEqual([]);
    expect(findAcronyms("see the table (NOTE)")).toEqual([]);
  });

  it("builds an acronym map for normalisation", () => {
    expect(acronymMap(findAcronyms("information and communication technology (ICT)")).get("ICT")).toBe("information and communication technology");
  });
});
