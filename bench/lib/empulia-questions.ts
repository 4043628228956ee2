// The questions of EmPULIA-QA (Italian public-procurement law): out of domain for the ADGM
// library bench:answer imports, so each must get the not-answered reply.
import { readFile } from "node:fs/promises";
import { z } from "zod";

const empuliaSchema = z.array(z.object({ question: z.string().min(1) }).loose());

export async function loadEmpuliaQuestions(file: string): Promise<string[]> {
  return empuliaSchema.parse(JSON.parse(await readFile(file, "utf8"))).map((r) => r.question);
}
