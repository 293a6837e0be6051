/**
 * The registry's facts the CLI reads at start-up (src/cli/services.ts: plain data the build writes
 * from the declarations, so `--help` and settings checks load no pipeline) are each dataset's own
 * declaration, and the commands' help names their own flags.
 */
import { describe, expect } from "vitest"
import { datasets } from "../../pipelines/index.ts"
import { backfillableNames } from "../../src/cli/backfillPlan.ts"
import { commandFlags } from "../../src/cli/argv.ts"
import { BACKFILLABLE, datasetNames, servicesFor, servicesOf } from "../../src/cli/services.ts"
import { metaOf } from "../../src/crawl/DatasetMeta.ts"
import { it } from "../support/emulatorFixtures.ts"

describe("the CLI's static lists", () => {
  it("given the registry, when the CLI reads its facts, then each dataset's services are the ones it declares, in registry order, and backfill takes those the backfill plan does", () => {
    expect(datasetNames).toEqual(datasets.map((d) => d.name))
    for (const d of datasets) {
      expect(d.services?.length ?? 0).toBeGreaterThan(0)
      expect(servicesOf[d.name]).toEqual(d.services)
    }
    expect(BACKFILLABLE).toEqual(backfillableNames())
    expect(BACKFILLABLE).toEqual(["staking_transactions", "primary_blocks", "node_x_blocks", "node_p_blocks", "chain_metrics"])
  })

  it("given the facts as the build writes them, when read back as JSON, then they are the same facts", () => {
    const meta = metaOf(datasets)
    expect(JSON.parse(JSON.stringify(meta))).toEqual(meta)
    expect(meta.filter((m) => m.services.includes("metrics")).map((m) => m.name)).toEqual(["chain_metrics", "avg_tps", "token_holders", "nft_holders"])
  })

  it("given datasets, when their services are asked, then only the ones they call are named", () => {
    expect(servicesFor(["delegators"])).toEqual(["data"])
    expect(servicesFor(["avg_tps", "current_supply"])).toEqual(["metrics", "node"])
  })

  for (const command of Object.keys(commandFlags)) {
    it(`given chainetl ${command} --help, when its flags are read, then they are the flags argv.ts knows`, async ({ cli }) => {
      const help = await cli([command, "--help"])
      expect(help.code).toBe(0)
      const inHelp = [...new Set(help.stdout.match(/--[a-z0-9-]+/g) ?? [])].filter((f) => !["--help", "--version", "--wizard", "--completions", "--log-level"].includes(f))
      expect(inHelp.sort()).toEqual([...(commandFlags[command] ?? [])].sort())
    })
  }
})
