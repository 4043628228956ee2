import * as ort from "onnxruntime-node";
import onnxProto from "onnx-proto";

// The dot products of a query with every row of a matrix, for the exact vector search
// (kuzu/vector-mirror.ts). A JavaScript loop over a large library's ~140,000 triplet vectors was
// the largest cost of a search; onnxruntime's MatMul (the runtime already loaded for embedders)
// does the same arithmetic several times faster. The runtime sums in 32-bit floats, so the
// mirror re-scores its few best candidates exactly; where the runtime cannot load, the loop
// remains.

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

/** Scores of a query against each row of a row-major matrix (rows × dims), in row order. */
export interface MatrixScan {
  scores(matrix: Float32Array, rows: number, dims: number, query: Float32Array): Promise<Float32Array>;
}

function matVecModel(): Uint8Array {
  const info = (name: string, dims: Array<string | number>): onnxProto.onnx.IValueInfoProto => ({
    name,
    type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) } } },
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: "", version: 17 }],
    producerName: "clausegraph",
    graph: {
      name: "matvec",
      node: [{ opType: "MatMul", input: ["matrix", "query"], output: ["scores"] }],
      input: [info("matrix", ["rows", "dims"]), info("query", ["dims", 1])],
      output: [info("scores", ["rows", 1])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** The loop the runtime replaces, kept for a machine where it cannot load. */
export function loopScores(matrix: Float32Array, rows: number, dims: number, query: Float32Array): Float32Array {
  const out = new Float32Array(rows);
  for (let i = 0, base = 0; i < rows; i++, base += dims) {
    let dot = 0;
    for (let j = 0; j < dims; j++) dot += (matrix[base + j] ?? 0) * (query[j] ?? 0);
    out[i] = dot;
  }
  return out;
}

/** A scanner owned by one store: its runtime session is made on first use, one thread. */
export function createMatrixScan(): MatrixScan {
  let session: Promise<ort.InferenceSession | null> | null = null;
  const sessionOf = (): Promise<ort.InferenceSession | null> =>
    (session ??= ort.InferenceSession.create(matVecModel(), { intraOpNumThreads: 1, interOpNumThreads: 1 }).catch(() => null));
  return {
    async scores(matrix, rows, dims, query) {
      const runtime = rows > 0 ? await sessionOf() : null;
      if (runtime === null) return loopScores(matrix, rows, dims, query);
      const out = await runtime.run({
        matrix: new ort.Tensor("float32", matrix.subarray(0, rows * dims), [rows, dims]),
        query: new ort.Tensor("float32", query, [dims, 1]),
      });
      const data = out.scores?.data;
      return data instanceof Float32Array && data.length === rows ? data : loopScores(matrix, rows, dims, query);
    },
  };
}
