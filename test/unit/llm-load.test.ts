import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Llama } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGgufHeader } from "../../core/llm/gguf-header.ts";
import { createLlmRuntime } from "../../core/llm/llama-runtime.ts";
import { loadLlm } from "../../core/llm/load-llm.ts";
import { assertFitsInRam, estimateRamFromHeader, memoryMarginBytes } from "../../core/llm/memory-check.ts";
import { rejectionCode, thrownCode } from "../helpers/expect-code.ts";
import { writeFakeGguf } from "../helpers/fake-gguf.ts";

// Everything loadLlm decides before llama.cpp is involved; createLlama is a spy, so no native code
// runs and no weights are needed.

const GIB = 1024 ** 3;
let dir = "";
let fake = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cg-llm-load-"));
  fake = path.join(dir, "fake.gguf");
  await writeFakeGguf(fake, { contextLength: 4096, blockCount: 4, embeddingLength: 64, headCount: 4, headCountKv: 2 });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function spyLlama(impl: () => Promise<Llama> = () => new Promise<Llama>(() => undefined)): { calls: number; createLlama: () => Promise<Llama> } {
  const spy = {
    calls: 0,
    createLlama: () => {
      spy.calls += 1;
      return impl();
    },
  };
  return spy;
}

const plenty = { totalBytes: 16 * GIB, freeBytes: 12 * GIB };

describe("loadLlm before llama.cpp starts", () => {
  it("MODEL_NOT_FOUND for a missing file and MODEL_INVALID for a non-GGUF one, without starting llama.cpp", async () => {
    const spy = spyLlama();
    const runtime = createLlmRuntime({ createLlama: spy.createLlama, memoryProbe: () => plenty });
    expect(await rejectionCode(runtime.loadLlm({ modelPath: path.join(dir, "none.gguf") }))).toBe("MODEL_NOT_FOUND");
    const text = path.join(dir, "notes.gguf");
    await writeFile(text, "these are not weights");
    expect(await rejectionCode(runtime.loadLlm({ modelPath: text }))).toBe("MODEL_INVALID");
    expect(await rejectionCode(loadLlm({ modelPath: text, runtime: { createLlama: spy.createLlama } }))).toBe("MODEL_INVALID");
    expect(spy.calls).toBe(0);
    await runtime.dispose();
  });

  it("MODEL_TOO_LARGE_FOR_RAM when the model and its context do not fit the (injected) memory", async () => {
    const spy = spyLlama();
    const small = createLlmRuntime({ createLlama: spy.createLlama, memoryProbe: () => ({ totalBytes: 4000, freeBytes: 4000 }) });
    const err = await small.loadLlm({ modelPath: fake }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "MODEL_TOO_LARGE_FOR_RAM", file: fake, message: expect.stringMatching(/this computer has/) });

    const busy = createLlmRuntime({ createLlama: spy.createLlama, memoryProbe: () => ({ totalBytes: 16 * GIB, freeBytes: 1000 }) });
    const err2 = await busy.loadLlm({ modelPath: fake }).catch((e: unknown) => e);
    expect(err2).toMatchObject({ code: "MODEL_TOO_LARGE_FOR_RAM", message: expect.stringMatching(/free now/) });
    expect(spy.calls).toBe(0);
    await small.dispose();
    await busy.dispose();
  });

  it("counts the context's KV cache, not just the file", async () => {
    const header = await readGgufHeader(fake);
    // 2 (K,V) × 4 layers × 4096 tokens × (64/4 × 2 heads) × 2 bytes
    expect(estimateRamFromHeader(header, 4096)).toBe(header.sizeBytes + 2 * 4 * 4096 * 32 * 2);
    expect(estimateRamFromHeader(header, 8192)).toBeGreaterThan(estimateRamFromHeader(header, 4096));
    expect(memoryMarginBytes(16 * GIB)).toBe(0.5 * GIB);
    expect(memoryMarginBytes(1000)).toBe(100);
    expect(thrownCode(() => assertFitsInRam(2 * GIB, plenty, "x"))).toBe("returned");
    expect(thrownCode(() => assertFitsInRam(15.8 * GIB, plenty, "x"))).toBe("MODEL_TOO_LARGE_FOR_RAM");
  });

  it("MODEL_TIMEOUT when loading takes longer than loadTimeoutMs", async () => {
    const spy = spyLlama(); // never resolves: a runtime that hangs
    const runtime = createLlmRuntime({ createLlama: spy.createLlama, memoryProbe: () => plenty });
    const started = Date.now();
    const err = await runtime.loadLlm({ modelPath: fake, loadTimeoutMs: 50 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "MODEL_TIMEOUT", file: fake });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(spy.calls).toBe(1);
    await runtime.dispose();
  });

  it("CANCELLED when the caller aborts the load", async () => {
    const runtime = createLlmRuntime({ createLlama: spyLlama().createLlama, memoryProbe: () => plenty });
    const controller = new AbortController();
    const loading = runtime.loadLlm({ modelPath: fake, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await rejectionCode(loading)).toBe("CANCELLED");
    expect(await rejectionCode(runtime.loadLlm({ modelPath: fake, signal: AbortSignal.abort() }))).toBe("CANCELLED");
    await runtime.dispose();
  });

  it("a runtime that cannot start is a typed error, and a later load tries again", async () => {
    const spy = spyLlama(() => Promise.reject(new Error("no prebuilt binary")));
    const runtime = createLlmRuntime({ createLlama: spy.createLlama, memoryProbe: () => plenty });
    const err = await runtime.loadLlm({ modelPath: fake }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "INTERNAL", message: expect.stringMatching(/no prebuilt binary/) });
    await runtime.loadLlm({ modelPath: fake }).catch(() => undefined);
    expect(spy.calls).toBe(2);
    await runtime.dispose();
    expect(await rejectionCode(runtime.loadLlm({ modelPath: fake }))).toBe("INTERNAL");
  });

  it("VALIDATION for bad settings", async () => {
    const runtime = createLlmRuntime({ createLlama: spyLlama().createLlama, memoryProbe: () => plenty });
    expect(await rejectionCode(runtime.loadLlm({ modelPath: fake, threads: 0 }))).toBe("VALIDATION");
    await runtime.dispose();
  });
});
