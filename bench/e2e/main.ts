/** `npm run bench`: the end-to-end bench, its table, bench/results.json. */
import * as os from "node:os"
import { parseE2eArgs } from "./args.ts"
import { cpuSource } from "./measure.ts"
import { formatTable, writeResults } from "./report.ts"
import { runE2e } from "./run.ts"

export const runE2eBench = async (argv: ReadonlyArray<string>): Promise<void> => {
  const args = parseE2eArgs(argv)
  const t0 = performance.now()
  console.log(
    `end-to-end bench: ${args.datasets.map((d) => d.name).join(", ")} at ${args.sizes.map((s) => s.label).join(", ")}; ` +
      `${args.methods.join(", ")}; median of ${args.repeat}, interleaved; node ${process.version}, ${os.cpus().length} cores\nCPU: ${cpuSource}\n`
  )
  const cases = await runE2e({ ...args, log: (line) => console.log(line) })
  const { datasets, sizes, resultsFile, ...rest } = args
  writeResults(resultsFile, { ...rest, datasets: datasets.map((d) => d.name), sizes, cpuSource }, cases)
  console.log(`\n${formatTable(cases)}\n\nresults: ${resultsFile} (${((performance.now() - t0) / 1000).toFixed(0)} s)`)
}
