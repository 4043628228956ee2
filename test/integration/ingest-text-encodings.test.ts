import { describe, expect, it } from "vitest";
import { bomlessUtf16, decodeText, looksBinary } from "../../core/ingest/text-decode.ts";

// "non-UTF-8 text files": UTF-16 with and without a byte-order mark decodes to the same
// text, Latin-1 decodes with a note, and binary junk stays binary (refused as UNSUPPORTED_TYPE).

const TEXT = "Article 1 Datenschutz\nDer Verantwortliche muss die Verletzung der Aufsichtsbehörde melden.\n";
const LE = Buffer.from(TEXT, "utf16le");
const BE = Buffer.from(TEXT, "utf16le").swap16();

describe("text encodings", () => {
  it("UTF-16 with a BOM decodes silently", () => {
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), LE]))).toEqual({ text: TEXT, warnings: [] });
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), BE])).text).toBe(TEXT);
  });

  it("UTF-16 without a BOM is recognized, decoded and noted, not taken for binary", () => {
    expect(bomlessUtf16(LE)).toBe("utf-16le");
    expect(bomlessUtf16(BE)).toBe("utf-16be");
    expect(looksBinary(LE)).toBe(false);
    expect(looksBinary(BE)).toBe(false);
    const le = decodeText(LE);
    expect(le.text).toBe(TEXT);
    expect(le.warnings.join(" ")).toMatch(/UTF-16LE/);
    expect(decodeText(BE).text).toBe(TEXT);
  });

  it("Latin-1 decodes with a note; plain UTF-8 is not mistaken for UTF-16", () => {
    const latin = decodeText(Buffer.from("Données à l'autorité", "latin1"));
    expect(latin.text).toBe("Données à l'autorité");
    expect(latin.warnings.length).toBe(1);
    expect(bomlessUtf16(Buffer.from(TEXT, "utf8"))).toBeNull();
    expect(decodeText(Buffer.from(TEXT, "utf8"))).toEqual({ text: TEXT, warnings: [] });
  });

  it("binary junk with scattered zero bytes stays binary", () => {
    const junk = Buffer.alloc(64 * 1024);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 256;
    expect(bomlessUtf16(junk)).toBeNull();
    expect(looksBinary(junk)).toBe(true);
    const zeros = Buffer.alloc(4096);
    expect(bomlessUtf16(zeros)).toBeNull();
    expect(looksBinary(zeros)).toBe(true);
  });
});
