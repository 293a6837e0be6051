import { relative } from "node:path"
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The longest files, longest first (measured one by one and in groups on a two-core machine).
 * They start first: on two workers a long file started last is the suite's tail, while started
 * first it runs beside everything else. A file not listed starts after them, in vitest's order
 * (cached durations, else the largest file first).
 */
export const LONGEST_FIRST = [
  "test/reliability/kill.test.ts",
  "test/store/s3Output.test.ts",
  "test/cli/rehearsal.test.ts",
  "test/pipelines/node/blocks.test.ts",
  "test/e2e/spine.test.ts",
  "test/distributed/workers.test.ts",
  "test/distributed/bucketWorkers.test.ts",
  "test/distributed/partition.test.ts",
  "test/reliability/killRowGroups.test.ts",
  "test/reliability/compaction.test.ts",
  "test/cli/backfill.test.ts",
  "test/e2e/catalogue.test.ts",
  "test/reliability/faults.test.ts",
  "test/pipelines/evm/evm_transactions.test.ts",
  "test/pipelines/node/fanouts.test.ts",
  "test/pipelines/primary/validators.test.ts",
  "test/pipelines/metrics/chain_metrics.test.ts",
  "test/pipelines/evm/group.test.ts",
  "test/pipelines/primary/utxos.test.ts",
  "test/e2e/exampleAnalyses.test.ts",
  "test/cli/query.test.ts",
  "test/reliability/tokenExpiry.test.ts",
  "test/reliability/brokenCheckpoint.test.ts",
  "test/reliability/writerLock.test.ts",
  "test/e2e/nightly.test.ts"
]

/**
 * Started before all others, so each runs in a fresh worker process (the first file a worker
 * gets): diskFull's full-disk race (which slice's failure still fits on the disk) was tuned that
 * way, and in a worker a long file had used first it left no failure recorded (2 of ~26 runs).
 */
export const FRESH_WORKER = ["test/reliability/diskFull.test.ts"]

/** FRESH_WORKER, then the files above in that order, then the rest as vitest orders them (cached durations, else size). */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (f: TestSpecification) => {
      const order = [...FRESH_WORKER, ...LONGEST_FIRST]
      const i = order.indexOf(relative(f.project.config.root, f.moduleId).split("\\").join("/"))
      return i === -1 ? order.length : i
    }
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f)
  }
}

export default defineConfig({
  test: {
    // the workspace packages' own tests (packages/emulator/test) run with the product's
    include: ["test/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    // builds dist/ first when the sources are newer (the CLI's processes then skip tsx)
    globalSetup: ["test/support/freshDist.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // two cores on CI: keep worker count at the core count so emulator-backed tests do not starve
    maxWorkers: 2,
    minWorkers: 1,
    // one process per worker, reused from file to file: a fresh process per file spent seconds of
    // CPU loading the same modules again (Effect, DuckDB, the emulator) before each file's first
    // test. Files share nothing else: each starts its own emulator, writes its own temporary
    // folders and restores what it changes in the process (environment variables, spies)
    isolate: false,
    // memory tests measure the heap after a collection, not the garbage earlier files left
    poolOptions: { forks: { execArgv: ["--expose-gc"] } },
    sequence: { sequencer: LongestFirst },
    // dt-sql-parser ships ES modules with directory imports that only a bundler resolves
    server: { deps: { inline: ["dt-sql-parser"] } }
  }
})
