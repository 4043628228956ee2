// Document text is data, never instructions. Two things in it could steer the answer: strings that
// look like our citation keys ("[S3]", "[ S 12 ]", "【S9】") and strings that look like the prompt's
// own structure (source tags, "Answer:" lines). Keys are turned into ⟨S3⟩, which the output parser
// never reads as a citation; angle brackets become ‹ › so no quote can open or close a source;
// and every quoted line is prefixed ("> "), so none can start with a label the parser looks for.

const KEY_LOOKALIKE = /[[【［〔]\s*((?:s|source)\s*\d+(?:\s*[,;&]\s*(?:and\s+)?(?:s|source)?\s*\d+)*)\s*[\]】］〕]/gi;
// Controls other than tab/newline confuse tokenizers and terminals alike.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Citation-key lookalikes in document text, made inert: "[S9]" → "⟨S9⟩". */
export function neutralizeKeys(text: string): string {
  return text.replace(KEY_LOOKALIKE, (_m, inner: string) => `⟨${inner.replace(/\s+/g, "")}⟩`);
}

/** Document text as it may appear inside the prompt: one line, inert keys and tags. */
export function quoteForPrompt(text: string): string {
  return neutralizeKeys(text).replace(CONTROL, "").replace(/</g, "‹").replace(/>/g, "›").replace(/\s+/g, " ").trim();
}
