// Questions the ObliQA library (the ADGM financial-services rulebooks) cannot answer: an auditor
// asking about a regime that was never imported must get the not-answered reply. Written by hand
// for bench:answer. Topics the ADGM corpus does cover (anti-money laundering, prudential capital,
// conduct of business, FATCA/CRS tax reporting, ESG disclosures, virtual assets, market conduct)
// are left out on purpose, so a cited answer to any of these is a real false answer.

export interface OodQuestion {
  /** The regime the question is about, for the per-topic breakdown. */
  regime: string;
  text: string;
}

export const OOD_QUESTIONS: readonly OodQuestion[] = [
  // US health privacy
  {
    regime: "HIPAA",
    text: "Under HIPAA, within how many days must a covered entity notify affected individuals of a breach of unsecured protected health information?",
  },
  { regime: "HIPAA", text: "What does the HIPAA Privacy Rule define as protected health information?" },
  { regime: "HIPAA", text: "When must a HIPAA covered entity sign a business associate agreement with a vendor?" },
  { regime: "HIPAA", text: "What are the required implementation specifications for workforce security under the HIPAA Security Rule?" },
  { regime: "HIPAA", text: "What are the civil money penalty tiers for HIPAA violations?" },
  {
    regime: "HIPAA",
    text: "Which uses and disclosures of patient records for treatment, payment and health care operations are permitted without authorization?",
  },
  // EU data protection
  { regime: "GDPR", text: "What is the maximum administrative fine under GDPR Article 83 for infringing the basic principles for processing?" },
  { regime: "GDPR", text: "Within how many hours must a controller notify the supervisory authority of a personal data breach under the GDPR?" },
  { regime: "GDPR", text: "When is a data protection impact assessment mandatory under Article 35 of the GDPR?" },
  { regime: "GDPR", text: "What are the lawful bases for processing personal data under GDPR Article 6?" },
  { regime: "GDPR", text: "When must a controller designate a data protection officer under the GDPR?" },
  { regime: "GDPR", text: "What does the right to erasure ('right to be forgotten') give a data subject under the GDPR?" },
  // NIST
  { regime: "NIST", text: "What does NIST SP 800-53 control AC-2 require for account management?" },
  { regime: "NIST", text: "What are the five functions of the NIST Cybersecurity Framework?" },
  { regime: "NIST", text: "How does NIST SP 800-63B define authenticator assurance level 2?" },
  { regime: "NIST", text: "What phases of the incident response lifecycle does NIST SP 800-61 describe?" },
  { regime: "NIST", text: "What minimum length does NIST SP 800-63B set for memorized secrets such as passwords?" },
  // US corporate, FDA, OSHA
  { regime: "SOX", text: "What does Section 404 of the Sarbanes-Oxley Act require management to report about internal control over financial reporting?" },
  { regime: "SOX", text: "Under Sarbanes-Oxley Section 302, what must the CEO and CFO certify in each periodic report?" },
  { regime: "FDA", text: "What does 21 CFR Part 11 require for electronic signatures on FDA-regulated records?" },
  { regime: "FDA", text: "What cybersecurity information must a premarket submission for a medical device contain according to the FDA?" },
  { regime: "OSHA", text: "Which work-related injuries and illnesses must an employer record on the OSHA 300 log under 29 CFR 1904?" },
  // Payment cards
  { regime: "PCI DSS", text: "How often does PCI DSS require external vulnerability scans by an Approved Scanning Vendor?" },
  { regime: "PCI DSS", text: "May a merchant store the card verification code after authorization under PCI DSS Requirement 3?" },
  // EU digital regulation
  { regime: "DORA", text: "Under DORA, within what time must a financial entity submit the initial notification of a major ICT-related incident?" },
  { regime: "NIS2", text: "What are the incident reporting deadlines for essential entities under the NIS2 Directive?" },
  { regime: "AI Act", text: "Which AI systems are classified as high-risk under the EU AI Act?" },
  { regime: "AI Act", text: "What transparency obligations apply to providers of general-purpose AI models under the AI Act?" },
  { regime: "MDR", text: "What does the EU Medical Device Regulation 2017/745 require for post-market surveillance of devices?" },
  { regime: "Machinery", text: "What must the EU declaration of conformity contain for machinery bearing the CE marking?" },
  // Other privacy laws
  { regime: "CCPA", text: "What rights does the California Consumer Privacy Act give consumers to opt out of the sale of their personal information?" },
  { regime: "COPPA", text: "What parental consent does COPPA require before an online service collects data from children under 13?" },
  { regime: "LGPD", text: "What duties does Brazil's LGPD give the encarregado (data protection officer)?" },
  // Standards and other sectors
  { regime: "ISO 27001", text: "Which ISO/IEC 27001 Annex A controls address information security in supplier relationships?" },
  { regime: "FAR", text: "When must a contracting officer obtain certified cost or pricing data under the US Federal Acquisition Regulation?" },
  { regime: "FMCSA", text: "What hours-of-service limits apply to commercial truck drivers under FMCSA rules?" },
  { regime: "EU food", text: "How must allergens be emphasised in the list of ingredients under EU Regulation 1169/2011 on food information?" },
  { regime: "IED", text: "What emission limit values apply to large combustion plants under the Industrial Emissions Directive?" },
  { regime: "Clean Water Act", text: "What must a facility do to obtain an NPDES permit to discharge pollutants under the Clean Water Act?" },
  { regime: "Working Time", text: "How many weeks of paid annual leave must every worker receive under the EU Working Time Directive?" },
  {
    regime: "Italian procurement",
    text: "Up to what value may an Italian contracting authority directly award a works contract under the Codice dei contratti pubblici?",
  },
  { regime: "Accessibility Act", text: "What accessibility requirements does the European Accessibility Act set for e-books and e-readers?" },
];
