import { writeFile } from "node:fs/promises";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";

// Small documents for the crash-safety runs: every stage of an import (sections, cross-references,
// definitions, obligations, triplets, vectors) has something to write, so a kill can land in any of
// them. Made with pdf-lib at run time: nothing is committed, nothing is downloaded.

interface Article {
  n: number;
  heading: string;
  body: string[];
}

const REGULATION: Article[] = [
  {
    n: 1,
    heading: "Subject matter",
    body: ["This Regulation lays down rules on the keeping of records by operators", "and on the reporting of incidents referred to in Article 4."],
  },
  {
    n: 2,
    heading: "Definitions",
    body: [
      "For the purposes of this Regulation: (1) 'operator' means a person running an archive;",
      "(2) 'major incident' means an incident with a high adverse impact on the archive;",
      "(3) 'competent authority' means the authority designated under Article 6.",
    ],
  },
  {
    n: 3,
    heading: "Record keeping",
    body: [
      "Operators shall keep records of every access to the archive for five years.",
      "The records shall be made available to the competent authority on request.",
    ],
  },
  {
    n: 4,
    heading: "Incident notification",
    body: [
      "Operators shall notify the competent authority of a major incident within 24 hours.",
      "The notification shall contain the information listed in Article 5.",
    ],
  },
  {
    n: 5,
    heading: "Content of notifications",
    body: [
      "The notification referred to in Article 4 shall describe the incident and its impact.",
      "Operators shall update the notification within one month.",
    ],
  },
  {
    n: 6,
    heading: "Competent authorities",
    body: ["Each Member State shall designate a competent authority.", "The competent authority shall publish guidelines on Article 3."],
  },
  {
    n: 7,
    heading: "Penalties",
    body: [
      "Member States shall lay down rules on penalties applicable to infringements of Articles 3 and 4.",
      "The penalties shall be effective, proportionate and dissuasive.",
    ],
  },
];

async function regulationPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle("Archive Operators Regulation");
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  // Two articles a page: several pages, so "reading" reports progress more than once.
  for (let i = 0; i < REGULATION.length; i += 2) {
    const page = pdf.addPage([595, 842]);
    let y = 780;
    const line = (text: string, isBold: boolean, size: number): void => {
      page.drawText(text, { x: 60, y, size, font: isBold ? bold : regular });
      y -= size * 1.6;
    };
    if (i === 0) line("REGULATION ON ARCHIVE OPERATORS", true, 14);
    for (const article of REGULATION.slice(i, i + 2)) {
      line(`Article ${article.n}`, true, 11);
      line(article.heading, true, 11);
      for (const text of article.body) line(text, false, 10);
    }
  }
  return pdf.save();
}

// Text files use "Article N" heading lines, which the text reader sections like a regulation.
const GUIDANCE = `Guidance on archive security

Article 1
Scope
This guidance applies to operators within the meaning of Article 2 of the Archive Operators Regulation.
For the purposes of this guidance, 'access log' means the record of every read of an archived item.

Article 2
Access control
The operator shall restrict access to archived items to authorised staff.
Staff shall use individual accounts. The access log shall be reviewed every month, as set out in Article 3.

Article 3
Review
The security officer shall review the access log and report anomalies to the management body.
Findings shall be kept for three years.
`;

const POLICY = `Retention policy

Article 1
Purpose
This policy sets retention periods. 'Retention period' means the time a record is kept before deletion.

Article 2
Periods
Financial records shall be kept for ten years. Correspondence shall be kept for five years, except as provided in Article 3.

Article 3
Exceptions
The data protection officer shall approve every exception and shall record it in the register.
`;

/** Writes the three documents into dir and returns their paths, in import order. */
export async function writeCrashFixtures(dir: string): Promise<string[]> {
  const files = [path.join(dir, "archive-regulation.pdf"), path.join(dir, "security-guidance.txt"), path.join(dir, "retention-policy.md")];
  await writeFile(files[0] ?? "", await regulationPdf());
  await writeFile(files[1] ?? "", GUIDANCE);
  await writeFile(files[2] ?? "", POLICY);
  return files;
}
