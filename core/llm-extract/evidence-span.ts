// A triplet is kept only when its evidence is really in the section: models paraphrase and, worse,
// invent. The match ignores case, runs of whitespace and typographic quote/dash variants (PDF text
// and model output disagree on those), and the span found is mapped back to the original text so
// the viewer can highlight it.

export interface TextRange {
  start: number;
  end: number;
}

const FOLD: Record<string, string> = { "‘": "'", "’": "'", "`": "'", "´": "'", "“": '"', "”": '"', "«": '"', "»": '"', "–": "-", "—": "-", "‑": "-" };

interface Folded {
  text: string;
  /** Original offset of each folded character. */
  offsets: number[];
}

function fold(text: string): Folded {
  let out = "";
  const offsets: number[] = [];
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? "";
    if (/\s/u.test(ch)) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) {
      out += " ";
      offsets.push(i - 1);
      pendingSpace = false;
    }
    const folded = (FOLD[ch] ?? ch).toLowerCase();
    // toLowerCase keeps length for the characters regulations use; guard anyway so offsets stay aligned.
    out += folded.length === 1 ? folded : ch;
    offsets.push(i);
  }
  return { text: out, offsets };
}

/** Shortest evidence worth checking: a couple of words could match anywhere. */
const MIN_EVIDENCE_CHARS = 8;

/** Where `evidence` occurs in `sectionText` (normalized match), or null when it does not. */
export function locateEvidence(sectionText: string, evidence: string): TextRange | null {
  const needle = fold(evidence.replace(/^[\s"'“‘]+|[\s"'”’]+$/gu, "")).text.replace(/[.;,:]+$/u, "");
  if (needle.length < MIN_EVIDENCE_CHARS) return null;
  const hay = fold(sectionText);
  const at = hay.text.indexOf(needle);
  if (at < 0) return null;
  const start = hay.offsets[at] ?? 0;
  const end = (hay.offsets[at + needle.length - 1] ?? start) + 1;
  return { start, end };
}
