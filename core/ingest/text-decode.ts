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
  const bomless = bomlessUtf16(bytes);
  if (bomless !== null) {
    return {
      text: new TextDecoder(bomless).decode(bytes),
      warnings: [`No byte-order mark: decoded as ${bomless.toUpperCase()} from its pattern of zero bytes.`],
    };
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

/**
 * UTF-16 saved without a byte-order mark (some Windows tools do this). Text in Latin scripts then
 * has a zero byte in nearly every high half of a code unit and almost never in the low half, a
 * pattern binary files do not show; anything less clear-cut is left to the other checks.
 */
export function bomlessUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const units = Math.floor(Math.min(bytes.length, 8192) / 2);
  if (units < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < units; i++) {
    if (bytes[2 * i] === 0) evenZeros += 1;
    if (bytes[2 * i + 1] === 0) oddZeros += 1;
  }
  if (oddZeros >= units * 0.9 && evenZeros <= units * 0.02) return "utf-16le";
  if (evenZeros >= units * 0.9 && oddZeros <= units * 0.02) return "utf-16be";
  return null;
}

/** NUL bytes do not occur in text files (UTF-16 files, with or without a BOM, are handled above). */
export function looksBinary(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return false;
  if (bomlessUtf16(bytes) !== null) return false;
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}
