import { Effect, Either } from "effect"
import { promises as fs } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { checkPartitionGrain, checkStoredGrains } from "../../src/cli/backfillPlan.ts"
import { defaultJob, parseJob } from "../../src/Job.ts"
import { selectDatasets } from "../../src/Runner.ts"

const keysOf = (name: string, job = defaultJob) => selectDatasets([name], job)[0]!.partitionBy.map((p) => p.key)
const fieldsOf = (name: string, job = defaultJob) => selectDatasets([name], job)[0]!.schema.fields.map((f) => f.name)

describe("the job's partitionGrain", () => {
  it("given no section, when the datasets are selected, then each is at its pipeline's grain: primary_blocks by month with date in the file, evm_blocks by day", () => {
    expect(keysOf("primary_blocks")).toEqual(["network", "blockchain", "month"])
    expect(fieldsOf("primary_blocks")).toContain("date")
    expect(keysOf("evm_blocks")).toEqual(["chain_id", "date"])
    expect(fieldsOf("evm_blocks")).not.toContain("date")
  })

  it("given a grain per dataset, when selected, then the job wins, child tables included", () => {
    const job = Either.getOrThrow(parseJob({ partitionGrain: { primary_blocks: "day", evm_transactions: "month" } }, "job.json"))
    expect(keysOf("primary_blocks", job)).toEqual(["network", "blockchain", "date"])
    expect(fieldsOf("primary_blocks", job)).not.toContain("date")
    const tx = selectDatasets(["evm_transactions"], job)[0]!
    expect(tx.children!.map((c) => c.partitionBy.map((p) => p.key))).toEqual(tx.children!.map(() => ["chain_id", "month"]))
    const row: Record<string, unknown> = { block_timestamp: new Date("2024-05-31T23:59:59Z") }
    tx.children![0]!.derive!(row)
    expect(row["date"]).toBe("2024-05-31")
  })

  it("given a grain that is not day or month, or a dataset without time partition, when checked, then the error names the field", () => {
    const bad = parseJob({ partitionGrain: { primary_blocks: "week" } }, "job.json")
    expect(Either.isLeft(bad) && bad.left.message).toContain("partitionGrain")
    const unknown = checkPartitionGrain(Either.getOrThrow(parseJob({ partitionGrain: { delegators: "month" } }, "job.json")), "job.json")
    expect(Either.isLeft(unknown) && unknown.left.message).toContain("job.json: partitionGrain.delegators: delegators has no time partition")
  })

  it("given an output holding primary_blocks by day, when a job asks for month, then the run refuses naming the grain on disk, and day is accepted", async () => {
    const out = await fs.mkdtemp(path.join(os.tmpdir(), "grain-"))
    try {
      await fs.mkdir(path.join(out, "primary_blocks", "network=mainnet", "blockchain=p-chain", "date=2024-05-01"), { recursive: true })
      const refused = await Effect.runPromise(Effect.either(checkStoredGrains(out, selectDatasets(["primary_blocks"], defaultJob), "job.json")))
      expect(Either.isLeft(refused) && refused.left.message).toContain(`primary_blocks is stored by day in ${out}, the job asks for month`)
      const day = Either.getOrThrow(parseJob({ partitionGrain: { primary_blocks: "day" } }, "job.json"))
      expect(Either.isRight(await Effect.runPromise(Effect.either(checkStoredGrains(out, selectDatasets(["primary_blocks"], day), "job.json"))))).toBe(true)
    } finally {
      await fs.rm(out, { recursive: true, force: true })
    }
  })
})
