/**
 * The CLI's static lists (kept out of the pipelines so `--help` and settings checks load none of
 * them) stay equal to the registry and to the commands' own flags.
 */
import { describe, expect, it, vi } from "vitest"
import { datasets } from "../../pipelines/index.ts"
import { backfillableNames } from "../../src/cli/backfillPlan.ts"
import { commandFlags } from "../../src/cli/argv.ts"
import { main } from "../../src/cli/main.ts"
import { BACKFILLABLE, datasetNames, servicesFor, servicesOf } from "../../src/cli/services.ts"

describe("the CLI's static lists", () => {
  it("given the registry, when compared, then every dataset has its services and the names and backfillable ones are equal", () => {
    expect(datasetNames).toEqual(datasets.map((d) => d.name))
    expect(BACKFILLABLE).toEqual(backfillableNames())
    for (const d of datasets) expect(servicesOf[d.name]?.length ?? 0).toBeGreaterThan(0)
  })

  it("given datasets, when their services are asked, then only the ones they call are named", () => {
    expect(servicesFor(["delegators"])).toEqual(["data"])
    expect(servicesFor(["avg_tps", "current_supply"])).toEqual(["metrics", "node"])
  })

  for (const command of Object.keys(commandFlags)) {
    it(`given chainetl ${command} --help, when its flags are read, then they are the flags argv.ts knows`, async () => {
      let text = ""
      const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
        text += String(chunk)
        return true
      })
      try {
        expect(await main(["node", "chainetl", command, "--help"])).toBe(0)
      } finally {
        spy.mockRestore()
      }
      const inHelp = [...new Set(text.match(/--[a-z0-9-]+/g) ?? [])].filter((f) => !["--help", "--version", "--wizard", "--completions", "--log-level"].includes(f))
      expect(inHelp.sort()).toEqual([...(commandFlags[command] ?? [])].sort())
    })
  }
})
