/** Queued slice jobs as the distributed enqueuer makes them, for tests of the queue and its workers. */
import { makeSlice } from "../../src/crawl/Slice.ts"
import { jobId } from "../../src/distributed/SliceJob.ts"

/** One queued job of `output`: a delegators snapshot slice, with the id the enqueuer would give it. */
export const delegatorsJob = (output: string) => {
  const slice = makeSlice("delegators", { network: "mainnet", snapshot_date: "2025-01-01" })
  const job = { outputId: output, runId: "r1", dataset: "delegators", grain: undefined, slice, asOf: 1_735_689_600, ingestedAt: "2025-01-01T00:00:00.000Z", partRows: 100 }
  return { slice, id: jobId(output, "delegators", slice.id), job }
}
