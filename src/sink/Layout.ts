/**
 * Which partition grain a dataset's folder was written at, read from the folder names: the time
 * key is a dataset's last Hive key, `date=` by day or `month=` by month (src/transform/Grain.ts).
 * Only the first folder of each level is looked at, so this costs a few readdirs, not a tree walk.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"

export type StoredGrain = "day" | "month"

const KEYS: ReadonlyArray<readonly [string, StoredGrain]> = [
  ["date=", "day"],
  ["month=", "month"]
]

/** The grain found under `<outDir>/<dataset>`, undefined when it holds no time folder yet. */
export const grainOnDisk = async (outDir: string, dataset: string, depth = 8): Promise<StoredGrain | undefined> => {
  let dir = path.join(outDir, dataset)
  for (let level = 0; level < depth; level++) {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => [])
    const sub = entries.filter((e) => e.isDirectory()).map((e) => e.name)
    for (const name of sub) for (const [prefix, grain] of KEYS) if (name.startsWith(prefix)) return grain
    if (sub.length === 0) return undefined
    dir = path.join(dir, sub[0]!)
  }
  return undefined
}
