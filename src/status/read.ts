/**
 * What `status` and `report` read from an output folder besides the checkpoints: the run reports,
 * and how far each height-ordered listing has scanned (each dataset's declared columns, so both
 * commands show the same height). Loads no pipeline.
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import type { DatasetMeta } from "../crawl/DatasetMeta.ts"
import { scannedHeights } from "../crawl/Heights.ts"
import type { RunReport } from "../Runner.ts"
import type { HeightLine } from "./lag.ts"

/** Every run report of `out/_runs`, in no particular order. */
export const readRuns = (out: string) =>
  Effect.promise(async () => {
    const dir = path.join(out, "_runs")
    const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".json"))
    const runs = await Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), "utf8")) as RunReport))
    return runs
  })

/** Per height-ordered dataset (registry order) each listing's height scanned through, how far it is complete and its holes. */
export const committedHeights = (metas: ReadonlyArray<DatasetMeta>) =>
  Effect.gen(function* () {
    const lines: HeightLine[] = []
    for (const m of metas) {
      if (m.heights === undefined) continue
      for (const h of yield* scannedHeights(m.name, m.heights)) lines.push({ dataset: m.name, ...h, latest: null, lagBlocks: null })
    }
    return lines
  })
