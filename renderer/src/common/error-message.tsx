import type { ErrorInfo } from "../../../core/contract/contract.ts";
import { errorHeadline } from "../lib/error-text.ts";

export function ErrorMessage({ error, testId = "error" }: { error: ErrorInfo; testId?: string }) {
  const headline = errorHeadline(error);
  return (
    <div className="error-message" role="alert" data-testid={testId} data-code={error.code}>
      <span className="error-headline">{headline}</span>
      {error.message !== "" && error.message !== headline ? <span className="error-detail">{error.message}</span> : null}
    </div>
  );
}
