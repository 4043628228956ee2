// Questions the ten corpus PDFs (DORA, GDPR, HIPAA, NIST SP 800-171/30/66, an FAA airworthiness
// proposal, three Italian tender documents) cannot answer, written in an auditor's words for
// fitting the refusal decision (bench:fit-answer). Half name no law at all, as auditors often do;
// a few name one the library lacks. Topics the ten documents do cover (ICT risk, incidents, third
// parties, personal data, health records, CUI security, risk assessment, aircraft inspections,
// public procurement of medical devices) are left out on purpose. ObliQA test's out-of-domain list
// (ood-questions.ts) is a different library's and stays unseen by the fit.

export interface OodCorpusQuestion {
  /** The subject area, for a per-topic breakdown. */
  topic: string;
  language: "en" | "it";
  text: string;
}

export const OOD_CORPUS_QUESTIONS: readonly OodCorpusQuestion[] = [
  { topic: "tax", language: "en", text: "When is our corporate income tax return due each year?" },
  { topic: "tax", language: "en", text: "Can we deduct entertainment expenses for clients from taxable profit?" },
  { topic: "tax", language: "en", text: "What VAT rate applies to digital services sold to consumers in another member state?" },
  { topic: "tax", language: "en", text: "How long must invoices be kept for the tax authorities?" },
  { topic: "employment", language: "en", text: "How many weeks of paid parental leave is an employee entitled to?" },
  { topic: "employment", language: "en", text: "What is the maximum number of overtime hours a worker may do per week?" },
  { topic: "employment", language: "en", text: "What notice period applies when we dismiss an employee after five years of service?" },
  { topic: "employment", language: "en", text: "Do we have to pay interns the minimum wage?" },
  { topic: "accounting", language: "en", text: "How should a lessee recognise a lease on its balance sheet?" },
  { topic: "accounting", language: "en", text: "When does the auditor have to rotate off a listed client?" },
  { topic: "securities", language: "en", text: "How quickly must a listed company disclose inside information to the market?" },
  { topic: "securities", language: "en", text: "What counts as market manipulation when trading our own shares?" },
  { topic: "AML", language: "en", text: "Above what cash amount must a dealer report a transaction to the financial intelligence unit?" },
  { topic: "AML", language: "en", text: "What customer due diligence do we owe for a politically exposed person?" },
  { topic: "sanctions", language: "en", text: "Which countries are under an export ban for dual-use goods?" },
  { topic: "competition", language: "en", text: "Can we agree minimum resale prices with our distributors?" },
  { topic: "competition", language: "en", text: "What is the fine for taking part in a price-fixing cartel?" },
  { topic: "environment", language: "en", text: "What are the emission limits for a diesel generator on our premises?" },
  { topic: "environment", language: "en", text: "How must we dispose of used batteries and electronic waste?" },
  { topic: "workplace safety", language: "en", text: "How often must fire extinguishers in the office be inspected?" },
  { topic: "workplace safety", language: "en", text: "What first-aid equipment must a warehouse keep on site?" },
  { topic: "consumer", language: "en", text: "How many days does a consumer have to withdraw from an online purchase?" },
  { topic: "consumer", language: "en", text: "What warranty period applies to goods sold to consumers?" },
  { topic: "food", language: "en", text: "At what temperature must chilled food be stored in the canteen?" },
  { topic: "insurance", language: "en", text: "How is the solvency capital requirement of an insurer calculated?" },
  { topic: "payments", language: "en", text: "What does PCI DSS require for storing card numbers?" },
  { topic: "payments", language: "en", text: "When must a payment service provider apply strong customer authentication under PSD2?" },
  { topic: "crypto", language: "en", text: "What must a crypto-asset white paper contain under MiCA?" },
  { topic: "AI", language: "en", text: "Which AI systems are banned outright under the AI Act?" },
  { topic: "corporate", language: "en", text: "What must management certify about internal control over financial reporting under Sarbanes-Oxley?" },
  { topic: "corporate", language: "en", text: "How many independent directors must sit on the board of a listed company?" },
  { topic: "sustainability", language: "en", text: "Which companies must publish a sustainability report and from which year?" },
  { topic: "tax", language: "it", text: "Entro quando va presentata la dichiarazione dei redditi della società?" },
  { topic: "tax", language: "it", text: "Qual è l'aliquota IVA ordinaria sulle prestazioni di consulenza?" },
  { topic: "employment", language: "it", text: "Quanti giorni di ferie spettano a un dipendente a tempo pieno?" },
  { topic: "employment", language: "it", text: "Qual è il periodo di preavviso per il licenziamento di un impiegato?" },
  { topic: "workplace safety", language: "it", text: "Ogni quanto va aggiornata la formazione antincendio dei lavoratori?" },
  { topic: "environment", language: "it", text: "Come si smaltiscono i rifiuti di apparecchiature elettriche ed elettroniche in ufficio?" },
  { topic: "consumer", language: "it", text: "Entro quanti giorni il consumatore può recedere da un acquisto online?" },
  { topic: "corporate", language: "it", text: "Quando deve essere approvato il bilancio d'esercizio dall'assemblea dei soci?" },
];
