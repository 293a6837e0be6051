/**
 * `npm run bench`: the end-to-end bench (bench/e2e/, `-- --help` for its flags). The Parquet writer
 * bench and the planning bench stay reachable: `-- --writers [--rows N --repeat N]` runs both,
 * `-- --planning-only` the planning one, `-- --startup` the CLI's start-up CPU alone, `-- --file-cost` and `-- --http` the cost of one
 * more file and of one request (it also ends
 * the default run), `-- --committed-keys [--rows N]` the memory of a restart's committed keys, `-- --pace` a backfill's wall time against what the service allows, `-- --slice-cost` a one-page slice's fixed CPU. None asserts timings, which depend on the machine.
 */
import { USAGE } from "./e2e/args.ts"
import { runE2eBench } from "./e2e/main.ts"
import { runParquetWriters } from "./parquet-writers.ts"
import { runPlanning } from "./planning.ts"
import { runStartup } from "./startup.ts"
import { runFileCost } from "./fileCost.ts"
import { runHttpCost } from "./httpCost.ts"
import { committedKeysBench } from "./committedKeys.ts"
import { PACE_USAGE, runPace } from "./pace/main.ts"
import { SLICE_COST_USAGE, runSliceCost } from "./sliceCost.ts"

const args = process.argv.slice(2)
if (args.includes("--help")) {
  console.log(USAGE)
  console.log(PACE_USAGE)
  console.log(SLICE_COST_USAGE)
} else if (args.includes("--slice-cost")) {
  // a one-page slice's fixed CPU (bench/sliceCost.ts)
  await runSliceCost(args)
} else if (args.includes("--pace")) {
  // a backfill against a replayed service with a fixed latency, at several rates (bench/pace/)
  await runPace(args)
} else if (args.includes("--startup")) {
  // only the CLI's start-up CPU (bench/startup.ts)
  await runStartup(args)
} else if (args.includes("--file-cost")) {
  // what one more file costs the sink (bench/fileCost.ts)
  await runFileCost(args)
} else if (args.includes("--http")) {
  // what one request costs the client (bench/httpCost.ts)
  await runHttpCost(args)
} else if (args.includes("--committed-keys")) {
  // the memory of a restarting slice's committed keys, as texts and as digests (bench/committedKeys.ts)
  const i = args.indexOf("--rows")
  await committedKeysBench(i < 0 ? 1_000_000 : Number(args[i + 1]))
} else if (args.includes("--planning-only")) {
  runPlanning(args)
} else if (args.includes("--writers")) {
  runPlanning(args)
  await runParquetWriters(args)
} else {
  await runE2eBench(args)
  await runStartup(args)
}
