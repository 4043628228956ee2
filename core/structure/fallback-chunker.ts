import type { BodyPiece } from "./paragraphs.ts";
import { endsSentence, splitSentences } from "./sentences.ts";

// When a document prints no structure we can cite (tables, memos, scans turned text), it is cut
// into chunks small enough to quote and retrieve, on sentence boundaries so a chunk never stops
// mid-sentence unless a single sentence is itself too long.

export const DEFAULT_CHUNK_CHARS = 1500;

/** Line pieces → sentence-sized pieces (a line holding two sentence ends becomes two pieces). */
function fragments(pieces: readonly BodyPiece[], maxChars: number): BodyPiece[] {
  const out: BodyPiece[] = [];
  for (const piece of pieces) {
    const sentences = splitSentences(piece.text);
    if (sentences.length <= 1 && piece.text.length <= maxChars) {
      out.push(piece);
      continue;
    }
    for (const s of sentences) {
      if (s.length <= maxChars) {
        out.push({ text: s, line: piece.line });
        continue;
      }
      // A sentence longer than a chunk: cut at word boundaries, the least bad place left.
      let rest = s;
      while (rest.length > maxChars) {
        const cut = rest.lastIndexOf(" ", maxChars);
        const at = cut > maxChars * 0.5 ? cut : maxChars;
        out.push({ text: rest.slice(0, at).trim(), line: piece.line });
        rest = rest.slice(at).trim();
      }
      if (rest.length > 0) out.push({ text: rest, line: piece.line });
    }
  }
  return out;
}

function size(pieces: readonly BodyPiece[]): number {
  return pieces.reduce((n, p) => n + p.text.length + 1, 0);
}

/**
 * Groups pieces into chunks of at most `maxChars` characters (joined with single separators),
 * each ending at a sentence end whenever one exists in the chunk's second half.
 */
export function chunkPieces(pieces: readonly BodyPiece[], maxChars = DEFAULT_CHUNK_CHARS): BodyPiece[][] {
  const frags = fragments(pieces, maxChars);
  const chunks: BodyPiece[][] = [];
  let current: BodyPiece[] = [];
  for (const frag of frags) {
    while (current.length > 0 && size(current) + frag.text.length > maxChars) {
      let cut = current.length;
      for (let i = current.length - 1; i >= 0; i--) {
        const p = current[i];
        if (p !== undefined && endsSentence(p.text) && size(current.slice(0, i + 1)) >= maxChars * 0.4) {
          cut = i + 1;
          break;
        }
      }
      chunks.push(current.slice(0, cut));
      current = current.slice(cut);
    }
    current.push(frag);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
