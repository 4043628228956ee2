import { useState } from "react";
import type { OcrLanguage, OcrOffer } from "../../../core/contract/contract.ts";

// The one question a scanned PDF asks (OCR mode "ask"): read its pages with OCR, which takes a
// while, or leave the file out. "Remember my choice" saves the answer (ocr.setPreference) for the
// next scanned files; the library header's "Scanned PDFs" setting changes it later.

export type OcrLanguageChoice = OcrLanguage | "auto";

export const LANGUAGE_NAMES: Record<OcrLanguageChoice, string> = { auto: "Detect the language", eng: "English", ita: "Italian" };

interface Props {
  offer: OcrOffer;
  language: OcrLanguageChoice;
  onRead(language: OcrLanguageChoice, remember: boolean): void;
  onSkip(remember: boolean): void;
}

function seconds(n: number): string {
  return n < 90 ? `${n} s` : `${Math.round(n / 60)} min`;
}

export function OcrPrompt({ offer, language: initial, onRead, onSkip }: Props) {
  const [remember, setRemember] = useState(false);
  const [language, setLanguage] = useState<OcrLanguageChoice>(initial);
  const scope = offer.pages === offer.totalPages ? "This PDF is scanned" : `${offer.pages} of this PDF's ${offer.totalPages} pages are scanned`;
  return (
    <div className="ocr-prompt" role="group" aria-label="Scanned PDF" data-testid="ocr-prompt">
      <p className="ocr-question" data-testid="ocr-question">
        {scope} — read {offer.pages === offer.totalPages ? "it" : "them"} with OCR (about {seconds(offer.estimatedSeconds)})?
      </p>
      <div className="ocr-actions">
        <button type="button" className="primary" data-testid="ocr-read" onClick={() => onRead(language, remember)}>
          Read with OCR
        </button>
        <button type="button" className="quiet" data-testid="ocr-skip" onClick={() => onSkip(remember)}>
          Don’t import
        </button>
        <label className="small">
          Language{" "}
          <select value={language} data-testid="ocr-language" onChange={(e) => setLanguage(e.currentTarget.value as OcrLanguageChoice)}>
            {(Object.keys(LANGUAGE_NAMES) as OcrLanguageChoice[]).map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
        </label>
        <label className="small">
          <input type="checkbox" checked={remember} data-testid="ocr-remember" onChange={(e) => setRemember(e.currentTarget.checked)} /> Remember my choice
        </label>
      </div>
    </div>
  );
}
