/**
 * The output folder is checked before anything is started or written, so a bad `--out` fails at
 * once with exit 2 and its cause instead of half-way through a run. The check matters beyond
 * messages: Node's recursive mkdir loops forever where mkdir answers ENOENT for a folder whose
 * parent exists (as procfs does: `mkdir -p /proc/nope/_state` never returns, at 100 % CPU), so a
 * path on such a filesystem must never reach it.
 */
import { Effect } from "effect"
import { promises as fs, constants } from "node:fs"
import * as path from "node:path"
import { ConfigError } from "../Errors.ts"
import { servicesOf } from "./services.ts"

/** statfs magic numbers of kernel filesystems that hold no files of ours (linux/magic.h). */
const SPECIAL_FILESYSTEMS: Readonly<Record<number, string>> = {
  0x9fa0: "procfs",
  0x62656572: "sysfs",
  0x1cd1: "devpts",
  0x27e0eb: "cgroup",
  0x63677270: "cgroup2",
  0x64626720: "debugfs",
  0x73636673: "securityfs",
  0x74726163: "tracefs",
  0xcafe4a11: "bpf",
  0x6e736673: "nsfs"
}

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code

const refuse = (label: string, out: string, detail: string, fix: string) =>
  new ConfigError({ reason: "Invalid", field: label, detail: `cannot write to ${out}: ${detail}`, fix })

/** The nearest folder of `out` (itself or an ancestor) that exists, or the reason there is none. */
const nearestExisting = async (out: string, label: string): Promise<string | ConfigError> => {
  let p = out
  for (;;) {
    try {
      const st = await fs.stat(p)
      if (st.isDirectory()) return p
      return p === out
        ? refuse(label, out, "it exists and is not a directory", "pass a folder path")
        : refuse(label, out, `${p} is a file, so nothing can be created under it`, "pass a folder path that is not inside a file")
    } catch (e) {
      const code = errno(e)
      if (code === "EACCES") return refuse(label, out, `permission denied to look into ${path.dirname(p)}`, "pass a folder you may write to")
      if (code !== "ENOENT" && code !== "ENOTDIR") return refuse(label, out, `${code ?? String(e)}`, "pass another folder")
      const parent = path.dirname(p)
      if (parent === p) return refuse(label, out, "no part of the path exists", "pass another folder")
      p = parent
    }
  }
}

/** Refuses a folder the run could not create or write: a file in the way, permissions, read-only, /proc. */
export const checkOutWritable = (out: string, label = "--out"): Effect.Effect<void, ConfigError> =>
  Effect.promise(async () => {
    const existing = await nearestExisting(out, label)
    if (existing instanceof ConfigError) return existing
    const fsType = SPECIAL_FILESYSTEMS[Number((await fs.statfs(existing)).type)]
    if (fsType !== undefined) return refuse(label, out, `${existing} is on ${fsType}, a kernel filesystem that holds no files`, "pass a folder on a disk")
    try {
      await fs.access(existing, constants.W_OK | constants.X_OK)
    } catch (e) {
      const code = errno(e)
      const what = existing === out ? out : `${existing} (where ${out} would be created)`
      if (code === "EROFS") return refuse(label, out, `${what} is on a read-only file system`, "pass a folder on a writable disk")
      return refuse(label, out, `permission denied: this user may not write in ${what}`, "pass a folder you may write to, or change its permissions")
    }
    return undefined
  }).pipe(Effect.flatMap((e) => (e === undefined ? Effect.void : Effect.fail(e))))

/** Creates the output folder level by level (never the recursive mkdir described above). */
export const createOut = (out: string, label = "--out"): Effect.Effect<void, ConfigError> =>
  Effect.promise(async () => {
    const missing: Array<string> = []
    for (let p = out; ; p = path.dirname(p)) {
      if (await fs.stat(p).then(() => true, () => false)) break
      missing.unshift(p)
      if (path.dirname(p) === p) break
    }
    for (const dir of missing) {
      try {
        await fs.mkdir(dir)
      } catch (e) {
        if (errno(e) !== "EEXIST") return refuse(label, out, `mkdir ${dir}: ${errno(e) ?? String(e)}`, "pass a folder you may write to")
      }
    }
    return undefined
  }).pipe(Effect.flatMap((e) => (e === undefined ? Effect.void : Effect.fail(e))))

/** Names whose presence marks a folder as chainetl output. */
const OUTPUT_MARKS = ["_state", "_runs", "_rejects", ...Object.keys(servicesOf)]

/** `catalog` and `status` read an output folder: one that holds no output is a typo, not an empty result. */
export const checkOutHoldsOutput = (out: string, label = "--out"): Effect.Effect<void, ConfigError> =>
  Effect.promise(async () => {
    const names = await fs.readdir(out).catch((e: unknown) => errno(e) ?? "error")
    if (typeof names === "string") {
      const why = names === "ENOENT" ? "no such folder" : names === "ENOTDIR" ? "not a folder" : names === "EACCES" ? "permission denied" : names
      return new ConfigError({ reason: "Invalid", field: label, detail: `${out}: ${why}`, fix: "pass the folder a run wrote (default: $CHAINETL_OUT or ./output)" })
    }
    if (names.some((n) => OUTPUT_MARKS.includes(n))) return undefined
    return new ConfigError({
      reason: "Invalid",
      field: label,
      detail: `${out} holds no chainetl output (no _state, _runs or dataset folder)`,
      fix: "pass the folder a run wrote (default: $CHAINETL_OUT or ./output)"
    })
  }).pipe(Effect.flatMap((e) => (e === undefined ? Effect.void : Effect.fail(e))))
