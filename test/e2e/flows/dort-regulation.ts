import { type FixtureLine, articleLines, makePdf } from "../../helpers/make-pdf.ts";

// A small made-up regulation the browser tests import (three pages, four articles, cross-references
// and a definition): "DORT". Tests that need more append articles to its last page.

export const DORT_TITLE = "Digital Operational Resilience Test Regulation (DORT)";

export async function dortRegulationPdf(extraLastPage: FixtureLine[] = []): Promise<Uint8Array> {
  return makePdf(
    [
      [
        { text: DORT_TITLE, bold: true, size: 14 },
        ...articleLines(1, "Definitions", [
          "For the purposes of this Regulation, 'major incident' means an incident with a high",
          "adverse impact on the network and information systems of a financial entity.",
        ]),
        ...articleLines(2, "Incident management", [
          "Financial entities shall establish an incident management process to detect and",
          "classify every major incident in accordance with Article 3.",
        ]),
      ],
      [
        ...articleLines(3, "Reporting of major incidents", [
          "Financial entities shall report every major incident to the competent authority",
          "within 24 hours after having become aware of it.",
          "The competent authority shall forward the report to the supervisory authority.",
        ]),
      ],
      [
        ...articleLines(4, "Register of information", [
          "Financial entities shall maintain a register of information on all contractual",
          "arrangements with third-party providers, as referred to in Article 2.",
        ]),
        ...extraLastPage,
      ],
    ],
    { title: DORT_TITLE },
  );
}
