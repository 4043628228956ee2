// The instruments auditors cite, by every name they are cited by. Official texts rarely print
// their own short names (DORA's OJ text never says "DORA"; the GDPR's says "General Data
// Protection Regulation" once, in its title), so a question "under DORA" cannot be matched to the
// imported text by its words: it is matched through this registry. Curated by hand; each entry is
// one instrument (a publication, not a revision: "SP 800-171" covers Rev. 2 and Rev. 3).
//
// `identifiers` are parsed by instrument-keys.ts into language-neutral keys ("regulation:2022/2554",
// "celex:32022R2554" → the same key, "cfr:45/164/C", "nist-sp:800-171", "dlgs:36/2023"), so
// "Regolamento (UE) 2022/2554", "Reg. 2022/2554" and "32022R2554" all name DORA.
// test/unit/instrument-registry.test.ts checks that every identifier parses to a key and that no
// name or key belongs to two instruments.

export type Jurisdiction = "EU" | "US" | "UK" | "IT" | "INT";

export interface InstrumentEntry {
  /** Stable id ("eu-dora"). */
  id: string;
  jurisdiction: Jurisdiction;
  /** How a refusal names it: "MiCA (Regulation (EU) 2023/1114)". */
  display: string;
  /** Short names, acronyms and common names, English and Italian, as auditors write them. */
  names: readonly string[];
  /** Official identifiers as printed (CELEX numbers, "Regulation (EU) 2022/2554", "45 CFR Part 164"). */
  identifiers: readonly string[];
  /**
   * Words of the official title that identify the text when its number is not printed (the GDPR's
   * Council first-reading position is "REGULATION (EU) 2016/… … on the protection of natural
   * persons with regard to the processing of personal data …").
   */
  titlePhrases?: readonly string[];
  /** Instruments contained in this one: a document that is this one is those too. */
  contains?: readonly string[];
  /**
   * How people describe it without naming it ("the EU digital-resilience law", "the federal CUI
   * standard", "NIST's risk guide"): who issues it, what it is about, what kind of text it is.
   * A description names the instrument for scoping only (instrument-names.ts findDescriptions).
   */
  describedAs?: InstrumentDescription;
}

export interface InstrumentDescription {
  /** Issuer or jurisdiction words, one of which precedes the subject ("EU", "federal", "NIST's"). */
  by: readonly string[];
  /** What it regulates, as people put it. */
  subjects: readonly string[];
  /** What kind of text it is ("law", "rules", "guide"). */
  kinds: readonly string[];
}

const EU_BY = ["EU", "European", "Europe's", "Union"];
const US_BY = ["US", "U.S.", "federal", "American"];
const LAW_KINDS = ["law", "laws", "regulation", "regulations", "act", "rules", "rule", "regime", "framework", "legislation"];
const GUIDE_KINDS = ["guide", "guidance", "publication", "handbook", "manual", "special publication"];

export const INSTRUMENTS: readonly InstrumentEntry[] = [
  // ---- European Union ----
  {
    id: "eu-dora",
    jurisdiction: "EU",
    display: "DORA (Regulation (EU) 2022/2554)",
    names: ["DORA", "Digital Operational Resilience Act", "regolamento DORA", "Digital Operational Resilience Regulation"],
    identifiers: ["Regulation (EU) 2022/2554", "32022R2554"],
    titlePhrases: ["digital operational resilience for the financial sector", "resilienza operativa digitale per il settore finanziario"],

    describedAs: {
      by: EU_BY,
      subjects: ["digital resilience", "digital operational resilience", "operational resilience", "resilience", "ICT risk"],
      kinds: LAW_KINDS,
    },
  },
  {
    id: "eu-dora-rts-ict-risk",
    jurisdiction: "EU",
    display: "the DORA RTS on ICT risk management (Delegated Regulation (EU) 2024/1774)",
    names: ["RTS on ICT risk management framework", "RTS RMF"],
    identifiers: ["Delegated Regulation (EU) 2024/1774", "32024R1774"],
  },
  {
    id: "eu-dora-rts-incident-classification",
    jurisdiction: "EU",
    display: "the DORA RTS on classifying ICT-related incidents (Delegated Regulation (EU) 2024/1772)",
    names: ["RTS on classification of ICT-related incidents", "RTS on incident classification"],
    identifiers: ["Delegated Regulation (EU) 2024/1772", "32024R1772"],
  },
  {
    id: "eu-dora-rts-ict-services-policy",
    jurisdiction: "EU",
    display: "the DORA RTS on the policy for ICT services of third-party providers (Delegated Regulation (EU) 2024/1773)",
    names: ["RTS on ICT third-party policy", "RTS on contractual arrangements"],
    identifiers: ["Delegated Regulation (EU) 2024/1773", "32024R1773"],
  },
  {
    id: "eu-dora-its-register",
    jurisdiction: "EU",
    display: "the DORA ITS on the register of information (Implementing Regulation (EU) 2024/2956)",
    names: ["ITS on the register of information", "register of information ITS"],
    identifiers: ["Implementing Regulation (EU) 2024/2956", "32024R2956"],
  },
  {
    id: "eu-gdpr",
    jurisdiction: "EU",
    display: "the GDPR (Regulation (EU) 2016/679)",
    names: ["GDPR", "EU GDPR", "General Data Protection Regulation", "RGPD", "GDPR UE", "Regolamento generale sulla protezione dei dati"],
    identifiers: ["Regulation (EU) 2016/679", "32016R0679"],
    titlePhrases: [
      "protection of natural persons with regard to the processing of personal data and on the free movement of such data",
      "protezione delle persone fisiche con riguardo al trattamento dei dati personali",
    ],

    describedAs: { by: EU_BY, subjects: ["privacy", "data protection", "data privacy", "personal data"], kinds: LAW_KINDS },
  },
  {
    id: "eu-nis2",
    jurisdiction: "EU",
    display: "NIS2 (Directive (EU) 2022/2555)",
    names: ["NIS2", "NIS 2", "NIS2 Directive", "NIS 2 Directive", "direttiva NIS2", "direttiva NIS 2"],
    identifiers: ["Directive (EU) 2022/2555", "32022L2555"],
    titlePhrases: ["high common level of cybersecurity across the Union", "livello comune elevato di cibersicurezza nell'Unione"],
  },
  {
    id: "eu-mica",
    jurisdiction: "EU",
    display: "MiCA (Regulation (EU) 2023/1114)",
    names: ["MiCA", "MiCAR", "Markets in Crypto-Assets Regulation", "regolamento MiCA"],
    identifiers: ["Regulation (EU) 2023/1114", "32023R1114"],
    titlePhrases: ["markets in crypto-assets", "mercati delle cripto-attività"],
  },
  {
    id: "eu-ai-act",
    jurisdiction: "EU",
    display: "the AI Act (Regulation (EU) 2024/1689)",
    names: ["AI Act", "EU AI Act", "Artificial Intelligence Act", "regolamento sull'intelligenza artificiale", "regolamento IA"],
    identifiers: ["Regulation (EU) 2024/1689", "32024R1689"],
    titlePhrases: ["harmonised rules on artificial intelligence", "regole armonizzate sull'intelligenza artificiale"],
  },
  {
    id: "eu-psd2",
    jurisdiction: "EU",
    display: "PSD2 (Directive (EU) 2015/2366)",
    names: ["PSD2", "PSD 2", "Payment Services Directive", "second Payment Services Directive", "direttiva PSD2"],
    identifiers: ["Directive (EU) 2015/2366", "32015L2366"],
    titlePhrases: ["payment services in the internal market"],
  },
  {
    id: "eu-eidas",
    jurisdiction: "EU",
    display: "eIDAS (Regulation (EU) No 910/2014)",
    names: ["eIDAS", "eIDAS Regulation", "regolamento eIDAS"],
    identifiers: ["Regulation (EU) No 910/2014", "32014R0910"],
    titlePhrases: ["electronic identification and trust services for electronic transactions in the internal market"],
  },
  {
    id: "eu-eidas2",
    jurisdiction: "EU",
    display: "eIDAS 2 (Regulation (EU) 2024/1183)",
    names: ["eIDAS 2", "eIDAS2", "eIDAS 2.0", "European Digital Identity Regulation", "EUDI Regulation"],
    identifiers: ["Regulation (EU) 2024/1183", "32024R1183"],
    titlePhrases: ["European Digital Identity Framework"],
  },

  // ---- United States ----
  {
    id: "us-hipaa",
    jurisdiction: "US",
    display: "HIPAA (45 CFR Parts 160, 162 and 164)",
    names: ["HIPAA", "Health Insurance Portability and Accountability Act", "HIPAA Administrative Simplification", "HIPAA Rules", "HIPAA regulations"],
    identifiers: ["Pub. L. 104-191", "45 CFR Part 160", "45 CFR Part 162", "45 CFR Part 164"],
    contains: ["us-hipaa-privacy-rule", "us-hipaa-security-rule", "us-hipaa-breach-rule"],

    describedAs: {
      by: US_BY,
      subjects: [
        "health privacy",
        "health information privacy",
        "patient privacy",
        "medical privacy",
        "health data",
        "health care privacy",
        "healthcare privacy",
      ],
      kinds: LAW_KINDS,
    },
  },
  {
    id: "us-hipaa-privacy-rule",
    jurisdiction: "US",
    display: "the HIPAA Privacy Rule (45 CFR Part 164, Subparts A and E)",
    names: ["Privacy Rule", "HIPAA Privacy Rule", "Standards for Privacy of Individually Identifiable Health Information"],
    identifiers: ["45 CFR Part 164 Subpart E"],
  },
  {
    id: "us-hipaa-security-rule",
    jurisdiction: "US",
    display: "the HIPAA Security Rule (45 CFR Part 164, Subparts A and C)",
    names: ["Security Rule", "HIPAA Security Rule", "Security Standards for the Protection of Electronic Protected Health Information"],
    identifiers: ["45 CFR Part 164 Subpart C"],
  },
  {
    id: "us-hipaa-breach-rule",
    jurisdiction: "US",
    display: "the HIPAA Breach Notification Rule (45 CFR Part 164, Subpart D)",
    names: ["Breach Notification Rule", "HIPAA Breach Notification Rule", "HIPAA breach rule"],
    identifiers: ["45 CFR Part 164 Subpart D"],
  },
  {
    id: "us-glba",
    jurisdiction: "US",
    display: "the GLBA (Gramm-Leach-Bliley Act)",
    names: [
      "GLBA",
      "GLB Act",
      "Gramm-Leach-Bliley Act",
      "Gramm-Leach-Bliley",
      "Financial Services Modernization Act of 1999",
      "Safeguards Rule",
      "FTC Safeguards Rule",
    ],
    identifiers: ["Pub. L. 106-102", "16 CFR Part 314"],
  },
  {
    id: "us-sox",
    jurisdiction: "US",
    display: "SOX (the Sarbanes-Oxley Act of 2002)",
    names: ["SOX", "Sarbanes-Oxley Act", "Sarbanes-Oxley", "Sarbanes Oxley Act of 2002", "SOX 404"],
    identifiers: ["Pub. L. 107-204"],
  },
  {
    id: "us-ffiec-handbook",
    jurisdiction: "US",
    display: "the FFIEC IT Examination Handbook",
    names: ["FFIEC", "FFIEC IT Examination Handbook", "FFIEC IT Handbook", "FFIEC Handbook", "FFIEC CAT", "FFIEC Cybersecurity Assessment Tool"],
    identifiers: [],
    titlePhrases: ["FFIEC Information Technology Examination Handbook"],
  },
  {
    id: "us-nist-sp-800-53",
    jurisdiction: "US",
    display: "NIST SP 800-53",
    names: ["NIST SP 800-53", "NIST 800-53", "SP 800-53 Rev. 5", "SP 800-53 Rev. 4"],
    identifiers: ["SP 800-53"],
    titlePhrases: [
      "Security and Privacy Controls for Information Systems and Organizations",
      "Security and Privacy Controls for Federal Information Systems and Organizations",
    ],
  },
  {
    id: "us-nist-sp-800-171",
    jurisdiction: "US",
    display: "NIST SP 800-171",
    names: ["NIST SP 800-171", "NIST 800-171", "SP 800-171 Rev. 2", "SP 800-171 Rev. 3"],
    identifiers: ["SP 800-171"],
    titlePhrases: ["Protecting Controlled Unclassified Information in Nonfederal Systems"],

    describedAs: {
      by: [...US_BY, "NIST", "NIST's", "defense", "DoD"],
      subjects: ["CUI", "controlled unclassified information", "CUI protection", "CUI security"],
      kinds: ["standard", "standards", "requirements", "rules", ...GUIDE_KINDS],
    },
  },
  {
    id: "us-nist-sp-800-66",
    jurisdiction: "US",
    display: "NIST SP 800-66",
    names: ["NIST SP 800-66", "NIST 800-66", "SP 800-66 Rev. 1", "SP 800-66 Rev. 2"],
    identifiers: ["SP 800-66"],
    titlePhrases: ["Implementing the Health Insurance Portability and Accountability Act (HIPAA) Security Rule"],

    describedAs: { by: ["NIST", "NIST's"], subjects: ["HIPAA", "HIPAA security", "HIPAA implementation", "HIPAA Security Rule"], kinds: GUIDE_KINDS },
  },
  {
    id: "us-nist-sp-800-30",
    jurisdiction: "US",
    display: "NIST SP 800-30",
    names: ["NIST SP 800-30", "NIST 800-30", "SP 800-30 Rev. 1"],
    identifiers: ["SP 800-30"],
    titlePhrases: ["Guide for Conducting Risk Assessments"],

    describedAs: { by: ["NIST", "NIST's"], subjects: ["risk assessment", "risk-assessment", "risk assessments", "risk"], kinds: GUIDE_KINDS },
  },
  {
    id: "us-nist-sp-800-37",
    jurisdiction: "US",
    display: "NIST SP 800-37 (the Risk Management Framework)",
    names: ["NIST SP 800-37", "NIST 800-37", "NIST RMF", "Risk Management Framework for Information Systems and Organizations"],
    identifiers: ["SP 800-37"],
  },
  {
    id: "us-nist-sp-800-61",
    jurisdiction: "US",
    display: "NIST SP 800-61",
    names: ["NIST SP 800-61", "NIST 800-61", "Computer Security Incident Handling Guide"],
    identifiers: ["SP 800-61"],
  },
  {
    id: "us-nist-sp-800-63",
    jurisdiction: "US",
    display: "NIST SP 800-63 (Digital Identity Guidelines)",
    names: ["NIST SP 800-63", "NIST 800-63", "NIST SP 800-63B", "Digital Identity Guidelines"],
    identifiers: ["SP 800-63"],
  },
  {
    id: "us-nist-csf",
    jurisdiction: "US",
    display: "the NIST Cybersecurity Framework (CSF)",
    names: [
      "NIST CSF",
      "CSF",
      "CSF 2.0",
      "NIST Cybersecurity Framework",
      "Cybersecurity Framework",
      "Framework for Improving Critical Infrastructure Cybersecurity",
    ],
    identifiers: ["NIST CSWP 29"],
  },
  {
    id: "us-ccpa",
    jurisdiction: "US",
    display: "the CCPA (California Consumer Privacy Act)",
    names: ["CCPA", "CPRA", "California Consumer Privacy Act", "California Privacy Rights Act"],
    identifiers: [],
  },
  {
    id: "int-pci-dss",
    jurisdiction: "INT",
    display: "PCI DSS",
    names: ["PCI DSS", "PCI-DSS", "Payment Card Industry Data Security Standard"],
    identifiers: [],
  },

  // ---- United Kingdom ----
  {
    id: "uk-gdpr",
    jurisdiction: "UK",
    display: "the UK GDPR",
    names: ["UK GDPR", "United Kingdom General Data Protection Regulation"],
    identifiers: [],
  },
  {
    id: "uk-dpa-2018",
    jurisdiction: "UK",
    display: "the Data Protection Act 2018",
    names: ["DPA 2018", "Data Protection Act 2018", "UK Data Protection Act"],
    identifiers: ["2018 c. 12"],
  },

  // ---- International standards ----
  {
    id: "iso-27001",
    jurisdiction: "INT",
    display: "ISO/IEC 27001",
    names: ["ISO 27001", "ISO/IEC 27001", "ISO/IEC 27001:2022", "ISO/IEC 27001:2013"],
    identifiers: ["ISO/IEC 27001"],
    titlePhrases: ["Information security management systems — Requirements"],
  },
  {
    id: "iso-27002",
    jurisdiction: "INT",
    display: "ISO/IEC 27002",
    names: ["ISO 27002", "ISO/IEC 27002", "ISO/IEC 27002:2022"],
    identifiers: ["ISO/IEC 27002"],
  },
  {
    id: "iso-27701",
    jurisdiction: "INT",
    display: "ISO/IEC 27701",
    names: ["ISO 27701", "ISO/IEC 27701"],
    identifiers: ["ISO/IEC 27701"],
  },
  {
    id: "iso-22301",
    jurisdiction: "INT",
    display: "ISO 22301",
    names: ["ISO 22301"],
    identifiers: ["ISO 22301"],
  },

  // ---- Italy ----
  {
    id: "it-codice-contratti-2023",
    jurisdiction: "IT",
    display: "il Codice dei contratti pubblici (D.Lgs. 36/2023)",
    names: [
      "Codice dei contratti pubblici",
      "Codice dei contratti",
      "nuovo Codice dei contratti pubblici",
      "Codice degli appalti",
      "nuovo Codice degli appalti",
      "Codice appalti",
      "Public Procurement Code",
    ],
    identifiers: ["D.Lgs. 36/2023", "decreto legislativo 31 marzo 2023, n. 36"],
  },
  {
    id: "it-codice-contratti-2016",
    jurisdiction: "IT",
    display: "il previgente Codice dei contratti pubblici (D.Lgs. 50/2016)",
    names: ["vecchio Codice degli appalti", "previgente Codice dei contratti"],
    identifiers: ["D.Lgs. 50/2016", "decreto legislativo 18 aprile 2016, n. 50"],
  },
  {
    id: "it-codice-privacy",
    jurisdiction: "IT",
    display: "il Codice privacy (D.Lgs. 196/2003)",
    names: ["Codice privacy", "Codice della privacy", "Codice in materia di protezione dei dati personali", "Italian Privacy Code"],
    identifiers: ["D.Lgs. 196/2003", "decreto legislativo 30 giugno 2003, n. 196"],
  },
  {
    id: "it-cad",
    jurisdiction: "IT",
    display: "il Codice dell'amministrazione digitale (D.Lgs. 82/2005)",
    names: ["CAD", "Codice dell'amministrazione digitale"],
    identifiers: ["D.Lgs. 82/2005", "decreto legislativo 7 marzo 2005, n. 82"],
  },
  {
    id: "it-dlgs-231-2001",
    jurisdiction: "IT",
    display: "il D.Lgs. 231/2001 (responsabilità amministrativa degli enti)",
    names: ["Decreto 231", "Modello 231", "responsabilità amministrativa degli enti"],
    identifiers: ["D.Lgs. 231/2001", "decreto legislativo 8 giugno 2001, n. 231"],
  },
  {
    id: "it-nis2-recepimento",
    jurisdiction: "IT",
    display: "il D.Lgs. 138/2024 (recepimento della NIS2)",
    names: ["decreto NIS", "decreto NIS2"],
    identifiers: ["D.Lgs. 138/2024", "decreto legislativo 4 settembre 2024, n. 138"],
  },
];

const BY_ID = new Map(INSTRUMENTS.map((e) => [e.id, e]));

export function instrumentById(id: string): InstrumentEntry | undefined {
  return BY_ID.get(id);
}
