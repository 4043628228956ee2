// Text files arrive in whatever encoding the author's editor used. UTF-8 is the norm; anything
// that fails strict UTF-8 decoding is almost always Windows-1252/Latin-1 on the machines our
// auditors use, and decoding it as such never fails, so we do that and say so.

export interface DecodedText {
  text: string;
  warnings: string[];
}

export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder("utf-16le").decode(bytes), warnings: [] };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder("utf-16be").decode(bytes), warnings: [] };
  }
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), warnings: [] };
  } catch {
    return {
      text: new TextDecoder("windows-1252").decode(bytes),
      warnings: ["Not valid UTF-8: decoded as Windows-1252 (Latin-1); check accented characters."],
    };
  }
}

/** NUL bytes do not occur in text files (UTF-16 files carry a BOM and are handled above). */
export function looksBinary(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return false;
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}
