import { writeFile } from "node:fs/promises";

// Writes small but well-formed GGUF v3 files: a real header (metadata, tensor infos) and zeroed
// tensor data. Enough for everything that reads headers; llama.cpp could even map it, but nothing
// meaningful would come out, so tests that generate use the real tiny model instead.

export interface FakeTensor {
  name: string;
  dims: number[];
  /** ggml type: 0 = F32 (default), 1 = F16. */
  type?: 0 | 1;
}

export interface FakeGgufOptions {
  architecture?: string;
  name?: string;
  contextLength?: number;
  blockCount?: number;
  embeddingLength?: number;
  headCount?: number;
  headCountKv?: number;
  tensors?: FakeTensor[];
  /** Extra metadata entries (strings and unsigned integers only). */
  extra?: Record<string, string | number>;
  /** Drop this many bytes from the end: a truncated download. */
  truncateBy?: number;
}

const ALIGNMENT = 32;
const TYPE_UINT32 = 4;
const TYPE_STRING = 8;

class Writer {
  private readonly parts: Buffer[] = [];
  length = 0;
  push(buf: Buffer): void {
    this.parts.push(buf);
    this.length += buf.length;
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  str(s: string): void {
    const bytes = Buffer.from(s, "utf8");
    this.u64(bytes.length);
    this.push(bytes);
  }
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function bytesOf(t: FakeTensor): number {
  return t.dims.reduce((a, d) => a * d, 1) * (t.type === 1 ? 2 : 4);
}

export function fakeGgufBytes(options: FakeGgufOptions = {}): Buffer {
  const arch = options.architecture ?? "llama";
  const embd = options.embeddingLength ?? 64;
  const tensors = options.tensors ?? [
    { name: "token_embd.weight", dims: [embd, 32] },
    { name: "output_norm.weight", dims: [embd] },
  ];
  const kv: [string, string | number][] = [
    ["general.architecture", arch],
    ["general.name", options.name ?? "fake test model"],
    [`${arch}.context_length`, options.contextLength ?? 2048],
    [`${arch}.block_count`, options.blockCount ?? 2],
    [`${arch}.embedding_length`, embd],
    [`${arch}.attention.head_count`, options.headCount ?? 4],
    [`${arch}.attention.head_count_kv`, options.headCountKv ?? 4],
    ...Object.entries(options.extra ?? {}),
  ];
  const w = new Writer();
  w.push(Buffer.from("GGUF", "latin1"));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kv.length);
  for (const [key, value] of kv) {
    w.str(key);
    if (typeof value === "string") {
      w.u32(TYPE_STRING);
      w.str(value);
    } else {
      w.u32(TYPE_UINT32);
      w.u32(value);
    }
  }
  let offset = 0;
  let dataBytes = 0;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type ?? 0);
    w.u64(offset);
    dataBytes = offset + bytesOf(t);
    offset += Math.ceil(bytesOf(t) / ALIGNMENT) * ALIGNMENT;
  }
  w.push(Buffer.alloc((ALIGNMENT - (w.length % ALIGNMENT)) % ALIGNMENT));
  w.push(Buffer.alloc(dataBytes));
  const all = w.bytes();
  return options.truncateBy === undefined ? all : all.subarray(0, all.length - options.truncateBy);
}

export async function writeFakeGguf(file: string, options: FakeGgufOptions = {}): Promise<Buffer> {
  const bytes = fakeGgufBytes(options);
  await writeFile(file, bytes);
  return bytes;
}
