import { describe, expect, it } from "vitest";
import { fittedNodeLimit, INITIAL_NODE_LIMIT, MIN_NODE_LIMIT } from "../../renderer/src/graph/graph-model.ts";

describe("how many nodes a graph pane shows at first", () => {
  it("shows fewer nodes in a smaller pane, within its floor and the answer graph's ceiling", () => {
    // The graph pane at 1440×900 and at 1280×720 (measured in Chromium).
    const large = fittedNodeLimit(461 * 674);
    const small = fittedNodeLimit(406 * 494);
    expect(large).toBe(INITIAL_NODE_LIMIT);
    expect(small).toBeLessThan(large);
    expect(small).toBeGreaterThanOrEqual(MIN_NODE_LIMIT);
    expect(fittedNodeLimit(100 * 100)).toBe(MIN_NODE_LIMIT);
    expect(fittedNodeLimit(4000 * 3000)).toBe(INITIAL_NODE_LIMIT);
  });

  it("shows the usual number before the pane is measured", () => {
    expect(fittedNodeLimit(0)).toBe(INITIAL_NODE_LIMIT);
  });
});
