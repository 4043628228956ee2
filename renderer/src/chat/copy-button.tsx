import { useEffect, useState } from "react";

export function CopyButton({ text, label = "Copy answer" }: { text: () => string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = window.setTimeout(() => setState("idle"), 1800);
    return () => window.clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="quiet small"
      data-testid="copy-answer"
      onClick={() => {
        navigator.clipboard.writeText(text()).then(
          () => setState("copied"),
          () => setState("failed"),
        );
      }}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : label}
    </button>
  );
}
