/**
 * What a few tests need from the system that only root can make. Everything else the suite needs
 * it makes itself (a file size limit, another user's uid, a PostgreSQL server, a browser); these
 * it cannot, so without them the test is skipped with the reason printed beside its name
 * (vitest's `skip(condition, note)`), never passed. CONTRIBUTING.md lists every such test.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmdirSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

let tmpfs: { readonly why: string | undefined } | undefined

/**
 * Why this process may not mount a tmpfs, or undefined when it may (root with CAP_SYS_ADMIN, on
 * Linux). Tried once a process: mounting one and unmounting it is the only sure test.
 */
export const whyNoTmpfs = (): string | undefined => {
  tmpfs ??= { why: tryTmpfs() }
  return tmpfs.why
}

const tryTmpfs = (): string | undefined => {
  if (process.platform !== "linux") return `needs a tmpfs, which ${process.platform} does not have`
  const uid = process.getuid?.()
  if (uid !== 0) return `needs root to mount a tmpfs (running as uid ${uid})`
  const dir = mkdtempSync(path.join(os.tmpdir(), "chainetl-mount-"))
  try {
    const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir], { encoding: "utf8" })
    if (mounted.status !== 0) return `needs to mount a tmpfs, which this root may not (no CAP_SYS_ADMIN?): ${(mounted.stderr || String(mounted.error ?? "")).trim().split("\n")[0]}`
    spawnSync("umount", [dir])
    return undefined
  } finally {
    rmdirSync(dir)
  }
}
