import type { AnswerRoute } from "../../../core/contract/contract.ts";

const ROUTE_NAMES: Record<AnswerRoute["route"], string> = { graph: "Graph query", text: "Text retrieval", both: "Graph query and text retrieval" };

/** Under an answer: where it came from and why, and, when the graph was asked but did not answer, why not. */
export function AnswerRouteLine({ route }: { route: AnswerRoute }) {
  return (
    <div className="answer-route small" data-testid="answer-route" data-route={route.route} data-source={route.source ?? ""}>
      <span className="muted">
        <strong>{ROUTE_NAMES[route.route]}</strong>
        {route.source === "model" ? " (written by the local model)" : ""} — {route.reason}
      </span>
      {route.fallback !== undefined ? (
        <span className="answer-route-fallback" data-testid="answer-route-fallback">
          {" "}
          {route.fallback}
        </span>
      ) : null}
      {route.query !== undefined && route.query !== "" ? (
        <details className="answer-route-query">
          <summary>Read-only query</summary>
          <pre data-testid="answer-route-query">{route.query}</pre>
        </details>
      ) : null}
    </div>
  );
}
