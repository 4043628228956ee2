import type { OcrPreference } from "../../../core/contract/contract.ts";
import { LANGUAGE_NAMES, type OcrLanguageChoice } from "./ocr-prompt.tsx";

// The remembered choice for scanned PDFs, shown and changed in the library's header: ask each time
// (the default), always read them with OCR, or never import them; and the language of the scans.

const MODE_NAMES: Record<OcrPreference["mode"], string> = { ask: "Ask each time", auto: "Read with OCR", never: "Don’t import" };

interface Props {
  preference: OcrPreference;
  onChange(preference: OcrPreference): void;
}

export function OcrSetting({ preference, onChange }: Props) {
  return (
    <span className="ocr-setting small" data-testid="ocr-setting">
      <label>
        Scanned PDFs{" "}
        <select
          value={preference.mode}
          data-testid="ocr-setting-mode"
          onChange={(e) => onChange({ ...preference, mode: e.currentTarget.value as OcrPreference["mode"] })}
        >
          {(Object.keys(MODE_NAMES) as Array<OcrPreference["mode"]>).map((m) => (
            <option key={m} value={m}>
              {MODE_NAMES[m]}
            </option>
          ))}
        </select>
      </label>{" "}
      {preference.mode === "never" ? null : (
        <select
          aria-label="Language of scanned PDFs"
          value={preference.language}
          data-testid="ocr-setting-language"
          onChange={(e) => onChange({ ...preference, language: e.currentTarget.value as OcrLanguageChoice })}
        >
          {(Object.keys(LANGUAGE_NAMES) as OcrLanguageChoice[]).map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      )}
    </span>
  );
}
