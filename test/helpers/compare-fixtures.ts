import { writeFile } from "node:fs/promises";
import path from "node:path";
import { articleLines, makePdf, type FixtureLine } from "./make-pdf.ts";

export { scriptedVerdictLlm } from "../../bench/lib/scripted-llm.ts";

// Two small regulations on the same subjects in different words, for the comparison tests: an
// operational-resilience act (A) and a data-protection act (B) whose articles pair up — incident
// reporting (4 hours vs 72 hours), backups ("shall" vs "may"), training, outsourcing contracts —
// plus one article of A that B has nothing on.

export interface FixtureArticle {
  n: number;
  heading: string;
  body: string[];
}

export const RESILIENCE_ACT: FixtureArticle[] = [
  {
    n: 1,
    heading: "Subject matter",
    body: ["This Regulation lays down rules on the operational resilience of payment firms and of their information systems."],
  },
  {
    n: 2,
    heading: "Reporting of major incidents",
    body: [
      "1. A payment firm shall report every major incident to the competent authority within 4 hours of its classification.",
      "2. The report shall describe the causes of the incident and the measures taken to contain it.",
    ],
  },
  {
    n: 3,
    heading: "Backup and restoration",
    body: [
      "1. A payment firm shall keep backup copies of its data and shall test the restoration of those backups every year.",
      "2. Backup systems shall be physically separated from the production systems.",
    ],
  },
  {
    n: 4,
    heading: "Staff training",
    body: [
      "1. A payment firm shall train all staff in information security every year.",
      "2. The management body shall follow specific training on operational risk.",
    ],
  },
  {
    n: 5,
    heading: "Contracts with service providers",
    body: [
      "1. A payment firm shall conclude a written contract with each service provider.",
      "2. The contract shall set out service levels, audit rights and termination rights.",
    ],
  },
  {
    n: 6,
    heading: "Penetration testing",
    body: ["1. Every third year a payment firm shall have its critical systems tested by independent penetration testers using live production environments."],
  },
];

export const PROTECTION_ACT: FixtureArticle[] = [
  { n: 10, heading: "Scope", body: ["This Act applies to the processing of personal data by controllers and processors established in the Union."] },
  {
    n: 11,
    heading: "Notification of a breach to the supervisory authority",
    body: [
      "1. A controller shall notify a personal data breach to the supervisory authority within 72 hours of becoming aware of it.",
      "2. The notification shall describe the nature of the breach and the measures taken to address it.",
    ],
  },
  {
    n: 12,
    heading: "Backup copies and restoration of data",
    body: [
      "1. A controller may keep backup copies of personal data and shall be able to restore the availability of the data in a timely manner.",
      "2. The restoration of backup copies shall be tested regularly.",
    ],
  },
  {
    n: 13,
    heading: "Training of staff",
    body: ["1. A controller should train its staff on data protection and information security at least every two years."],
  },
  {
    n: 14,
    heading: "Contracts with processors",
    body: [
      "1. A controller shall use a processor only under a written contract.",
      "2. The contract shall set out the subject matter, the duration of the processing and the audit rights of the controller.",
    ],
  },
];

function pagesOf(title: string, articles: readonly FixtureArticle[]): FixtureLine[][] {
  // Two articles a page, so citations name different pages.
  const pages: FixtureLine[][] = [];
  for (let i = 0; i < articles.length; i += 2) {
    pages.push([...(i === 0 ? [{ text: title, bold: true, size: 14 }] : []), ...articles.slice(i, i + 2).flatMap((a) => articleLines(a.n, a.heading, a.body))]);
  }
  return pages;
}

export async function writeActPdf(dir: string, name: string, title: string, articles: readonly FixtureArticle[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, await makePdf(pagesOf(title, articles), { title }));
  return file;
}
