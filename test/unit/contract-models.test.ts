import { describe, expect, it } from "vitest";
import { createApi, requestSchemas } from "../../core/contract/contract.ts";
import { createDispatcher } from "../../core/contract/dispatch.ts";
import { ClauseGraphError } from "../../core/model/errors.ts";
import { createFakeEngine, LOG_RECORD, MODEL } from "../helpers/contract-fake-engine.ts";

// The model and answer-log channels end to end through the dispatcher and the renderer's API:
// parameters reach the engine parsed, results are validated on the way back, and model errors
// keep their codes so the UI can explain them.

function setup() {
  const engine = createFakeEngine();
  const dispatcher = createDispatcher({ engine, emit: () => undefined });
  const api = createApi({ invoke: (channel, payload) => dispatcher.dispatch(channel, payload), subscribe: () => () => undefined });
  return { engine, api };
}

describe("models.* and answers.log channels", () => {
  it("lists, selects (with settings or none), imports and reads the log", async () => {
    const { engine, api } = setup();
    const listed = await api.listModels({});
    expect(listed).toMatchObject({ ok: true, value: { active: { modelId: null, mode: "extractive" }, models: [{ id: MODEL.id, present: true }] } });

    const selected = await api.selectModel({ modelId: MODEL.id, threads: 2 });
    expect(selected).toMatchObject({ ok: true, value: { active: { modelId: MODEL.id, status: "ready", mode: "llm" } } });
    expect(engine.calls.at(-1)).toEqual({ method: "selectModel", args: [MODEL.id, { threads: 2 }] });
    await api.selectModel({ modelId: null });
    expect(engine.calls.at(-1)).toEqual({ method: "selectModel", args: [null, {}] });

    expect(await api.importModel({ path: "/models/x.gguf" })).toEqual({ ok: true, value: { status: "imported", model: MODEL } });
    expect(engine.calls.at(-1)).toEqual({ method: "importModel", args: ["/models/x.gguf"] });

    expect(await api.answerLog({ limit: 5 })).toEqual({ ok: true, value: [LOG_RECORD] });
    expect(engine.calls.at(-1)).toEqual({ method: "answerLog", args: [{ limit: 5 }] });
    await api.answerLog({});
    expect(engine.calls.at(-1)).toEqual({ method: "answerLog", args: [{}] });
  });

  it("keeps a model error's code and file across the boundary", async () => {
    const { engine, api } = setup();
    engine.failWith = new ClauseGraphError("MODEL_TOO_LARGE_FOR_RAM", "This model needs about 9.0 GB of memory", { file: "/models/big.gguf" });
    expect(await api.selectModel({ modelId: "big" })).toEqual({
      ok: false,
      error: { code: "MODEL_TOO_LARGE_FOR_RAM", message: "This model needs about 9.0 GB of memory", file: "/models/big.gguf" },
    });
  });

  it("the response schemas reject a malformed engine answer", () => {
    expect(requestSchemas["models.list"].result.safeParse({ modelsDir: "/m", active: { modelId: null }, models: [] }).success).toBe(false);
    expect(requestSchemas["answers.log"].result.safeParse([{ ...LOG_RECORD, askedAt: "yesterday" }]).success).toBe(false);
    expect(requestSchemas["answers.log"].result.safeParse([LOG_RECORD]).success).toBe(true);
  });
});
