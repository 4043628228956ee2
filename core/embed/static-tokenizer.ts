// The word-level tokenizer of the static model, written in the Hugging Face tokenizer.json format
// so it loads with @huggingface/tokenizers like any transformer tokenizer.
//
// - Normalizer NFKD, StripAccents, Lowercase: GloVe 6B is lowercased; NFKD folds what PDF text
//   extraction produces (ligatures "ﬁ" → "fi", full-width forms, non-breaking spaces) into the
//   forms GloVe saw; and the wink package kept only ASCII words (8 non-ASCII symbols aside, no
//   numbers and no single letters), so "café"/"società" can only ever match as "cafe"/"societa".
// - Pre-tokenizer BertPreTokenizer: split on whitespace and isolate every punctuation character.
//   Hyphenated GloVe entries ("well-known") are thus never produced; their parts are, which keeps
//   compounds the vocabulary lacks ("gdpr-compliant") half-known instead of unknown.
// - Model WordLevel with "[UNK]" = id 0. tokenizers.js has no WordLevel class and treats this
//   model as its "Legacy" word map, taking the unknown token from tokenizer_config.json, which is
//   therefore written too.

export const UNK_TOKEN = "[UNK]";
export const UNK_ID = 0;

// The punctuation class of tokenizers.js's BertPreTokenizer (Unicode P plus ASCII symbols).
const PUNCTUATION = "\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E";
const SINGLE_PRE_TOKEN = new RegExp(`^(?:[^\\s${PUNCTUATION}]+|[${PUNCTUATION}])$`, "u");

/** Whether normalisation + pre-tokenisation can ever yield exactly this vocabulary entry. */
export function isReachableToken(word: string): boolean {
  return SINGLE_PRE_TOKEN.test(word) && normalizeLikeTokenizer(word) === word;
}

/** What the tokenizer.json normalizer below does to a text (as tokenizers.js implements it). */
export function normalizeLikeTokenizer(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

export interface TokenizerFiles {
  tokenizerJson: string;
  tokenizerConfigJson: string;
}

/** `words[i]` gets id i + 1. */
export function buildStaticTokenizer(words: readonly string[], maxTokens: number): TokenizerFiles {
  // Written by hand rather than JSON.stringify(object): an object would reorder integer-like keys
  // ("2016", "10") ahead of the rest, and id order keeps the file readable and diff-able.
  const vocabLines = [`${JSON.stringify(UNK_TOKEN)}:${UNK_ID}`, ...words.map((w, i) => `${JSON.stringify(w)}:${i + 1}`)];
  const head = {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: [{ id: UNK_ID, content: UNK_TOKEN, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: { type: "Sequence", normalizers: [{ type: "NFKD" }, { type: "StripAccents" }, { type: "Lowercase" }] },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: null,
    decoder: null,
  };
  const headJson = JSON.stringify(head);
  const tokenizerJson = `${headJson.slice(0, -1)},"model":{"type":"WordLevel","unk_token":${JSON.stringify(UNK_TOKEN)},"vocab":{\n${vocabLines.join(",\n")}\n}}}\n`;
  const tokenizerConfigJson = `${JSON.stringify(
    {
      tokenizer_class: "PreTrainedTokenizerFast",
      unk_token: UNK_TOKEN,
      model_max_length: maxTokens,
      do_lower_case: true,
      clean_up_tokenization_spaces: false,
    },
    null,
    2,
  )}\n`;
  return { tokenizerJson, tokenizerConfigJson };
}
