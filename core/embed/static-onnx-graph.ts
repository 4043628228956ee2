import onnxProto from "onnx-proto";

// The static embedding model as an ONNX graph, so the same onnxruntime path that runs transformer
// embedders runs it too (and a later swap of the model is a file change, not a code change):
//
//   input_ids [batch, seq] int64 ──Gather(embedding matrix)──► [batch, seq, dim]
//   attention_mask [batch, seq] int64 ──Cast float──Unsqueeze──► × (zeroes padding positions)
//   ReduceSum over seq ÷ max(ΣMask, 1)               mean pooling; max() keeps empty input finite
//   ÷ max(ReduceL2, 1e-12)                           L2 normalisation; a zero vector stays zero
//   ──► embeddings [batch, dim] float32
//
// Opset 17 keeps ReduceL2's axes an attribute while ReduceSum/Unsqueeze already take them as
// inputs; onnxruntime-node 1.30 supports it, as do all recent runtimes.

const { onnx } = onnxProto;

export const STATIC_MODEL_OUTPUT = "embeddings";
const OPSET = 17;
const IR_VERSION = 8;

type DataType = onnxProto.onnx.TensorProto.DataType;
const FLOAT: DataType = onnx.TensorProto.DataType.FLOAT;
const INT64: DataType = onnx.TensorProto.DataType.INT64;

// Raw tensor bytes are little-endian by the ONNX spec; DataView makes that independent of the host.
function floatBytes(values: Float32Array): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] ?? 0, true);
  return out;
}

function int64Bytes(values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 8);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
  return out;
}

function floatTensor(name: string, dims: number[], values: Float32Array): onnxProto.onnx.ITensorProto {
  return { name, dims, dataType: FLOAT, rawData: floatBytes(values) };
}

function int64Tensor(name: string, dims: number[], values: number[]): onnxProto.onnx.ITensorProto {
  return { name, dims, dataType: INT64, rawData: int64Bytes(values) };
}

function valueInfo(name: string, elemType: DataType, dims: (string | number)[]): onnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) },
      },
    },
  };
}

function node(opType: string, inputs: string[], output: string, attribute: onnxProto.onnx.IAttributeProto[] = []): onnxProto.onnx.INodeProto {
  return { opType, input: inputs, output: [output], name: output, attribute };
}

function intAttr(name: string, value: number): onnxProto.onnx.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
}

function intsAttr(name: string, values: number[]): onnxProto.onnx.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INTS, ints: values };
}

export interface StaticGraphInput {
  /** Row-major [rows, dimensions]; row 0 is the padding/unknown token and must be zeros. */
  matrix: Float32Array;
  rows: number;
  dimensions: number;
  /** Recorded in the model's metadata. */
  name: string;
  producerVersion: string;
  metadata: Record<string, string>;
}

/** Serialised ONNX model bytes; identical input gives identical bytes. */
export function buildStaticOnnxModel(input: StaticGraphInput): Uint8Array {
  const { matrix, rows, dimensions } = input;
  if (matrix.length !== rows * dimensions) throw new Error("embedding matrix size does not match rows × dimensions");

  const graph: onnxProto.onnx.IGraphProto = {
    name: input.name,
    initializer: [
      floatTensor("embedding_matrix", [rows, dimensions], matrix),
      int64Tensor("seq_axis", [1], [1]),
      int64Tensor("feature_axis", [1], [2]),
      floatTensor("one", [], Float32Array.of(1)),
      floatTensor("epsilon", [], Float32Array.of(1e-12)),
    ],
    input: [valueInfo("input_ids", INT64, ["batch", "sequence"]), valueInfo("attention_mask", INT64, ["batch", "sequence"])],
    output: [valueInfo(STATIC_MODEL_OUTPUT, FLOAT, ["batch", dimensions])],
    node: [
      node("Gather", ["embedding_matrix", "input_ids"], "token_vectors", [intAttr("axis", 0)]),
      node("Cast", ["attention_mask"], "mask", [intAttr("to", FLOAT)]),
      node("Unsqueeze", ["mask", "feature_axis"], "mask_3d"),
      node("Mul", ["token_vectors", "mask_3d"], "masked_vectors"),
      node("ReduceSum", ["masked_vectors", "seq_axis"], "summed", [intAttr("keepdims", 0)]),
      node("ReduceSum", ["mask", "seq_axis"], "token_count", [intAttr("keepdims", 1)]),
      node("Max", ["token_count", "one"], "safe_count"),
      node("Div", ["summed", "safe_count"], "mean"),
      node("ReduceL2", ["mean"], "norm", [intsAttr("axes", [1]), intAttr("keepdims", 1)]),
      node("Max", ["norm", "epsilon"], "safe_norm"),
      node("Div", ["mean", "safe_norm"], STATIC_MODEL_OUTPUT),
    ],
  };

  const model: onnxProto.onnx.IModelProto = {
    irVersion: IR_VERSION,
    opsetImport: [{ domain: "", version: OPSET }],
    producerName: "clausegraph",
    producerVersion: input.producerVersion,
    graph,
    metadataProps: Object.entries(input.metadata)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, value]) => ({ key, value })),
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
}
