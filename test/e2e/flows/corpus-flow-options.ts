import { corpusPath, readManifest } from "../../helpers/corpus.ts";
import type { AuditorFlowOptions, BadInput } from "./auditor-flow.ts";
import { RESULTS_DIR } from "./renderer-build.ts";

// The corpus files the auditor flow uses, in one place for the browser and the Electron test.
// GDPR and DORA import in about 15 s each here: two real, long regulations with cross-references.

export const FLOW_DOCUMENTS = ["regulatory/eu_gdpr_2016-679_council_first_reading_position_5419-16.pdf", "regulatory/eu_dora_2022-2554_OJ_L333.pdf"];

/** Bad inputs, with what the manifest says each must produce, and what the library must say. */
const FLOW_BAD_INPUTS: { path: string; manifestSays: RegExp; code: string; says: RegExp }[] = [
  // "import must ask for / reject without password"
  { path: "bad_inputs/encrypted_user_password_libreoffice__pw_openpassword.pdf", manifestSays: /password/, code: "ENCRYPTED", says: /password/i },
  // "unparseable: no trailer/xref"
  { path: "bad_inputs/corrupt_header_only_no_xref.pdf", manifestSays: /unparseable/, code: "CORRUPT", says: /damaged|not a valid PDF/i },
];

export function corpusFlowOptions(screenshotPrefix: string, log?: (line: string) => void): AuditorFlowOptions {
  const manifest = readManifest();
  const badInputs: BadInput[] = FLOW_BAD_INPUTS.map((bad) => {
    const entry = manifest.find((e) => e.path === bad.path);
    if (entry === undefined) throw new Error(`corpus manifest has no ${bad.path}`);
    if (!bad.manifestSays.test(entry.expected ?? "")) throw new Error(`corpus manifest changed what ${bad.path} must produce: ${entry.expected}`);
    return { file: corpusPath(bad.path), code: bad.code, says: bad.says };
  });
  return {
    documents: FLOW_DOCUMENTS.map(corpusPath),
    question: "How quickly must a personal data breach be notified to the supervisory authority?",
    citation: /^GDPR Art\. 33\b/,
    sectionLabel: /^Article 33$/,
    badInputs,
    screenshotDir: RESULTS_DIR,
    screenshotPrefix,
    ...(log === undefined ? {} : { log }),
  };
}
