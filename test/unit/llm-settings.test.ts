import os from "node:os";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONTEXT_SIZE, DEFAULT_LOAD_TIMEOUT_MS, defaultThreads, resolveLlmSettings } from "../../core/llm/llm-settings.ts";
import { thrownCode } from "../helpers/expect-code.ts";

describe("LLM settings", () => {
  it("defaults to the cores capped at 4, a 4096-token context, no GPU layers and a 2-minute load timeout", () => {
    expect(resolveLlmSettings({}, { trainContextSize: 32768 }, 2)).toEqual({
      threads: 2,
      contextSize: 4096,
      gpuLayers: 0,
      loadTimeoutMs: 120_000,
    });
    expect(DEFAULT_CONTEXT_SIZE).toBe(4096);
    expect(DEFAULT_LOAD_TIMEOUT_MS).toBe(120_000);
    expect(defaultThreads(1)).toBe(1);
    expect(defaultThreads(16)).toBe(4);
    expect(defaultThreads()).toBe(Math.min(4, os.availableParallelism()));
    expect(resolveLlmSettings({}, { trainContextSize: null }).threads).toBe(defaultThreads());
  });

  it("clamps the context to what the model was trained on", () => {
    expect(resolveLlmSettings({}, { trainContextSize: 2048 }, 2).contextSize).toBe(2048);
    expect(resolveLlmSettings({ contextSize: 8192 }, { trainContextSize: 4096 }, 2).contextSize).toBe(4096);
    expect(resolveLlmSettings({ contextSize: 1024 }, { trainContextSize: 4096 }, 2).contextSize).toBe(1024);
    expect(resolveLlmSettings({ contextSize: 8192 }, { trainContextSize: null }, 2).contextSize).toBe(8192);
  });

  it("keeps explicit values", () => {
    expect(resolveLlmSettings({ threads: 1, gpuLayers: 12, loadTimeoutMs: 500 }, { trainContextSize: 4096 }, 8)).toEqual({
      threads: 1,
      contextSize: 4096,
      gpuLayers: 12,
      loadTimeoutMs: 500,
    });
  });

  it("rejects out-of-range settings with VALIDATION", () => {
    const train = { trainContextSize: 4096 };
    expect(thrownCode(() => resolveLlmSettings({ threads: 0 }, train))).toBe("VALIDATION");
    expect(thrownCode(() => resolveLlmSettings({ threads: 1.5 }, train))).toBe("VALIDATION");
    expect(thrownCode(() => resolveLlmSettings({ contextSize: 10 }, train))).toBe("VALIDATION");
    expect(thrownCode(() => resolveLlmSettings({ gpuLayers: -1 }, train))).toBe("VALIDATION");
    expect(thrownCode(() => resolveLlmSettings({ loadTimeoutMs: 0 }, train))).toBe("VALIDATION");
  });
});
