// A provision longer than a section may be is stored in parts: "§ 164.512", "§ 164.512 (part 2)",
// … (section-builder.ts). Citations name the provision, never the part; the part's number says
// which parts come before it.

const PART = / \(part (\d+)\)$/;

/** "§ 164.512 (part 3)" for the third part of "§ 164.512". */
export function partLabel(provision: string, part: number): string {
  return part <= 1 ? provision : `${provision} (part ${part})`;
}

/** The provision a section belongs to: "§ 164.512" for "§ 164.512 (part 3)" and for itself. */
export function provisionLabel(label: string): string {
  return label.replace(PART, "");
}

/** The part's number: 3 for "§ 164.512 (part 3)", 1 for a provision's first (or only) section. */
export function partNumber(label: string): number {
  const match = PART.exec(label);
  return match === null ? 1 : Number(match[1]);
}
