import { PDFDocument, StandardFonts } from "pdf-lib";

// Documents the trust checks (offline probe, fuzzing, hostile inputs) import when the shared corpus
// is absent: made with pdf-lib at run time, so nothing is committed or downloaded.

export interface FixtureArticle {
  n: number;
  heading: string;
  body: string[];
}

export const FIXTURE_ARTICLES: FixtureArticle[] = [
  {
    n: 1,
    heading: "Subject matter",
    body: ["This Regulation lays down rules on the protection of personal data", "processed by archive operators, as referred to in Article 3."],
  },
  {
    n: 2,
    heading: "Definitions",
    body: [
      "For the purposes of this Regulation: (1) 'operator' means a person running an archive;",
      "(2) 'personal data breach' means a breach of security leading to loss of personal data.",
    ],
  },
  {
    n: 3,
    heading: "Notification of a personal data breach",
    body: [
      "The operator shall notify the supervisory authority of a personal data breach",
      "without undue delay and not later than 72 hours after becoming aware of it.",
    ],
  },
  {
    n: 4,
    heading: "Records of processing",
    body: [
      "Each operator shall keep records of processing activities for five years.",
      "The records shall be made available to the supervisory authority on request.",
    ],
  },
];

/** A small regulation, one article a page: bold "Article N" and heading, then regular body lines. */
export async function regulationPdf(articles: FixtureArticle[] = FIXTURE_ARTICLES, title = "Archive Data Protection Regulation"): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const article of articles) {
    const page = pdf.addPage([595, 842]);
    let y = 780;
    page.drawText(`Article ${article.n}`, { x: 60, y, size: 12, font: bold });
    y -= 18;
    page.drawText(article.heading, { x: 60, y, size: 12, font: bold });
    y -= 22;
    for (const line of article.body) {
      page.drawText(line, { x: 60, y, size: 10, font: regular });
      y -= 15;
    }
  }
  return pdf.save();
}
