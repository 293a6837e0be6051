// Whether dist/ was built after every source file changed: the CLI (bin/chainetl.mjs) runs it only
// then, and the test suite's global setup builds it first when it is not (test/support/freshDist.ts).
import { readdirSync, statSync } from "node:fs"

/** Newest mtime of a .ts file below `dir`. */
const newestSource = (dir) => {
  let newest = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p))
    else if (e.name.endsWith(".ts")) newest = Math.max(newest, statSync(p).mtimeMs)
  }
  return newest
}

/** `root` ends with a slash (the checkout). */
export const distIsFresh = (root) => {
  try {
    const at = statSync(`${root}dist/cli/bin.js`).mtimeMs
    return ["src", "pipelines", "schemas", "packages/emulator/src"].every((d) => newestSource(`${root}${d}`) <= at)
  } catch {
    return false
  }
}
