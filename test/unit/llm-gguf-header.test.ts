import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ggmlTensorBytes } from "../../core/llm/ggml-type-size.ts";
import { readGgufHeader } from "../../core/llm/gguf-header.ts";
import { rejectionCode } from "../helpers/expect-code.ts";
import { fakeGgufBytes, writeFakeGguf } from "../helpers/fake-gguf.ts";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cg-gguf-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function fixedHeader(version: number, tensors: bigint, metadata: bigint): Buffer {
  const b = Buffer.alloc(24);
  b.write("GGUF", "latin1");
  b.writeUInt32LE(version, 4);
  b.writeBigUInt64LE(tensors, 8);
  b.writeBigUInt64LE(metadata, 16);
  return b;
}

describe("GGUF validation (header only, no weights loaded)", () => {
  it("reads architecture, context length, parameter count and name from a well-formed header", async () => {
    const file = path.join(dir, "good.gguf");
    await writeFakeGguf(file, {
      architecture: "qwen2",
      name: "Tiny Qwen",
      contextLength: 32768,
      tensors: [
        { name: "token_embd.weight", dims: [64, 100] },
        { name: "output_norm.weight", dims: [64], type: 1 },
      ],
      extra: { "general.file_type": 15, "tokenizer.chat_template": "{{ messages }}" },
    });
    const header = await readGgufHeader(file);
    expect(header).toMatchObject({
      file,
      version: 3,
      architecture: "qwen2",
      name: "Tiny Qwen",
      contextLength: 32768,
      parameterCount: 64 * 100 + 64,
      tensorCount: 2,
      fileType: "MOSTLY_Q4_K_M",
      hasChatTemplate: true,
    });
  });

  it("MODEL_NOT_FOUND for a missing file", async () => {
    expect(await rejectionCode(readGgufHeader(path.join(dir, "missing.gguf")))).toBe("MODEL_NOT_FOUND");
  });

  it("MODEL_INVALID for files that are not GGUF, with a reason a user can act on", async () => {
    const cases: [string, string | Buffer, RegExp][] = [
      ["empty.gguf", "", /empty/],
      ["readme.gguf", "# Just some markdown\n", /GGUF signature/],
      ["page.gguf", "<!DOCTYPE html><html>Not found</html>", /HTML/],
      ["lfs.gguf", "version https://git-lfs.github.com/spec/v1\noid sha256:abc\n", /Git LFS pointer/],
      ["zip.gguf", Buffer.from("PK\u0003\u0004rest-of-zip", "latin1"), /ZIP/],
      ["short.gguf", "GGUF", /truncated/],
    ];
    for (const [name, content, reason] of cases) {
      const file = path.join(dir, name);
      await writeFile(file, content);
      const err = await readGgufHeader(file).catch((e: unknown) => e);
      expect(err, name).toMatchObject({ code: "MODEL_INVALID", file });
      expect((err as Error).message, name).toMatch(reason);
    }
    await mkdir(path.join(dir, "folder.gguf"));
    expect(await rejectionCode(readGgufHeader(path.join(dir, "folder.gguf")))).toBe("MODEL_INVALID");
  });

  it("MODEL_INVALID for an unsupported version, a truncated download or a split part", async () => {
    const v1 = path.join(dir, "v1.gguf");
    await writeFile(v1, fixedHeader(1, 0n, 0n));
    expect((await readGgufHeader(v1).catch((e: unknown) => e)) as Error).toMatchObject({ code: "MODEL_INVALID", message: expect.stringMatching(/version 1/) });

    const truncated = path.join(dir, "truncated.gguf");
    await writeFakeGguf(truncated, { truncateBy: 100 });
    const err = await readGgufHeader(truncated).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "MODEL_INVALID", message: expect.stringMatching(/incomplete/) });

    const cutHeader = path.join(dir, "cut-header.gguf");
    await writeFile(cutHeader, fakeGgufBytes().subarray(0, 200));
    expect(await rejectionCode(readGgufHeader(cutHeader))).toBe("MODEL_INVALID");

    const split = path.join(dir, "model-00001-of-00003.gguf");
    await writeFakeGguf(split, { extra: { "split.count": 3 } });
    expect((await readGgufHeader(split).catch((e: unknown) => e)) as Error).toMatchObject({ code: "MODEL_INVALID", message: expect.stringMatching(/split/) });
  });

  it("a corrupt length in the header is MODEL_INVALID, not a crash of the process", async () => {
    // A 3 GB string length used to reach node-llama-cpp's reader and abort Node (native assertion).
    for (const length of [3_000_000_000n, 2n ** 62n, 5000n]) {
      const len = Buffer.alloc(8);
      len.writeBigUInt64LE(length);
      const file = path.join(dir, `corrupt-${length}.gguf`);
      await writeFile(file, Buffer.concat([fixedHeader(3, 1n, 1n), len, Buffer.alloc(64)]));
      expect((await readGgufHeader(file).catch((e: unknown) => e)) as Error).toMatchObject({
        code: "MODEL_INVALID",
        message: expect.stringMatching(/damaged/),
      });
    }
    const counts = path.join(dir, "counts.gguf");
    await writeFile(counts, fixedHeader(3, 2n ** 40n, 1n));
    expect(await rejectionCode(readGgufHeader(counts))).toBe("MODEL_INVALID");
  });

  it("knows the byte size of the common quantisation types", () => {
    expect(ggmlTensorBytes(0, [64, 2])).toBe(512); // F32
    expect(ggmlTensorBytes(1, [64])).toBe(128); // F16
    expect(ggmlTensorBytes(12, [256, 4])).toBe(4 * 144); // Q4_K
    expect(ggmlTensorBytes(14, [512])).toBe(2 * 210); // Q6_K
    expect(ggmlTensorBytes(8, [32n, 3n])).toBe(3 * 34); // Q8_0
    expect(ggmlTensorBytes(99, [32])).toBeNull();
  });
});
