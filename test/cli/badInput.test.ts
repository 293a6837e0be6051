/**
 * Every bad input is one clear error, exit 2, and nothing touched: one row per mistake a user
 * makes (flags, dates, output folders, job files, environment). Each row runs the real program
 * (src/cli/main.ts, in-process; rows that need another user run bin/chainetl.mjs as that user) in
 * a fresh sandbox folder, and the sandbox must be byte-for-byte what it was before.
 */
import { execFile, spawnSync } from "node:child_process"
import { promises as fs } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect } from "vitest"
import { Either } from "effect"
import { loadJobFile } from "../../src/Job.ts"
import { it } from "../support/emulatorFixtures.ts"
import { whyNoTmpfs } from "../support/privileges.ts"

const BIN = fileURLToPath(new URL("../../bin/chainetl.mjs", import.meta.url))
const SERVICE_VARS = ["CHAINETL_BASE_URL", "CHAINETL_METRICS_URL", "CHAINETL_NODE_URL", "CHAINETL_OUT", "CHAINETL_API_KEY", "CHAINETL_API_KEYS"]

interface Row {
  readonly name: string
  /** Arguments after `chainetl`; `$S` is the sandbox folder, `$O` the output folder in it. */
  readonly argv: ReadonlyArray<string>
  readonly env?: Readonly<Record<string, string>>
  /** Written to `$S/job.json` before the run. */
  readonly job?: string
  /** Prepares the sandbox (files in the way, a mount); returns a clean-up. */
  readonly given?: (sandbox: string) => Promise<(() => Promise<void>) | void>
  /** Run as this uid (a subprocess): root is never refused a write by permissions. */
  readonly uid?: number
  /** Why the row cannot run here (what it needs that this process may not make); printed beside it. */
  readonly skip?: string
  readonly exit: number
  readonly message: RegExp
  readonly notMessage?: RegExp
}

const isRoot = process.getuid?.() === 0

const rows: ReadonlyArray<Row> = [
  {
    name: "--as-of without --emulator (real services keep their own time)",
    argv: ["run", "delegators", "--as-of", "+1d", "--out", "$O"],
    env: { CHAINETL_BASE_URL: "http://127.0.0.1:9" },
    exit: 2,
    message: /^chainetl: --as-of: moves the emulated network's clock; a run against real services is as of their own time\. Fix: add --emulator, or drop --as-of/
  },
  {
    name: "a calendar-invalid --as-of",
    argv: ["run", "--emulator", "delegators", "--as-of", "2025-02-30", "--out", "$O"],
    exit: 2,
    message: /^chainetl: --as-of: "2025-02-30" is not a day or time the calendar has\. Fix: pass \+1d/
  },
  {
    name: "an --as-of before the emulator's start (its clock only moves forward)",
    argv: ["run", "--emulator", "delegators", "--as-of", "2024-06-01", "--out", "$O"],
    exit: 2,
    message: /^chainetl: --as-of: 2024-06-01 is before the emulator's start \(2025-01-02T00:00:00Z\); its clock only moves forward\. Fix: pass 2025-01-02 or later/
  },
  {
    name: "an --as-of that is neither an offset nor a date",
    argv: ["run", "--emulator", "delegators", "--as-of", "tomorrow", "--out", "$O"],
    exit: 2,
    message: /^chainetl: --as-of: got "tomorrow"\. Fix: pass \+1d/
  },
  {
    name: "a calendar-invalid --from",
    argv: ["backfill", "primary_blocks", "--from", "2023-02-30", "--to", "2023-03-05", "--out", "$O"],
    exit: 2,
    message: /^chainetl: --from: "2023-02-30" is not a day or time the calendar has\. Fix: pass a UTC date like/
  },
  {
    name: "a calendar-invalid since in the job",
    argv: ["run", "--emulator", "--job", "$S/job.json", "--out", "$O"],
    job: `{ "incremental": { "primary_blocks": { "since": "2024-13-01" } } }`,
    exit: 2,
    message: /job\.json: incremental\.primary_blocks\.since: a UTC date .* that the calendar has, got "2024-13-01"\. Fix:/
  },
  {
    name: "--out inside /proc (Node's recursive mkdir would spin there forever)",
    argv: ["run", "--emulator", "delegators", "--out", "/proc/chainetl-nope/out"],
    exit: 2,
    message: /^chainetl: --out: cannot write to \/proc\/chainetl-nope\/out: \/proc is on procfs, a kernel filesystem that holds no files\. Fix: pass a folder on a disk/
  },
  {
    name: "--out under a file",
    argv: ["run", "--emulator", "delegators", "--out", "$S/file/out"],
    given: async (s) => void (await fs.writeFile(path.join(s, "file"), "x")),
    exit: 2,
    message: /--out: cannot write to .*\/file\/out: .*\/file is a file, so nothing can be created under it/
  },
  {
    name: "--out is a file",
    argv: ["run", "--emulator", "delegators", "--out", "$S/file"],
    given: async (s) => void (await fs.writeFile(path.join(s, "file"), "x")),
    exit: 2,
    message: /--out: cannot write to .*\/file: it exists and is not a directory/
  },
  {
    name: "--out on a read-only file system",
    argv: ["run", "--emulator", "delegators", "--out", "$S/ro/out"],
    skip: whyNoTmpfs(),
    given: async (s) => {
      const mnt = path.join(s, "ro")
      await fs.mkdir(mnt)
      spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k,ro", "tmpfs", mnt])
      return async () => void spawnSync("umount", [mnt])
    },
    exit: 2,
    message: /--out: cannot write to .*\/ro\/out: .*\/ro \(where .* would be created\) is on a read-only file system/
  },
  {
    name: "--out in a folder this user may not write",
    argv: ["run", "--emulator", "delegators", "--out", "$S/locked/out"],
    given: async (s) => {
      await fs.mkdir(path.join(s, "locked"), { mode: 0o555 })
      await fs.chmod(s, 0o755)
    },
    ...(isRoot ? { uid: 65534 } : {}),
    exit: 2,
    message: /--out: cannot write to .*\/locked\/out: permission denied: this user may not write in .*\/locked/
  },
  {
    name: "backfill without --to",
    argv: ["backfill", "primary_blocks", "--from", "2025-01-01", "--out", "$O"],
    exit: 2,
    message: /^chainetl: --to: chainetl backfill needs --to\. Fix: add --to DATE\|HEIGHT, the end of the range \(excluded\)/
  },
  {
    name: "a misspelled flag",
    argv: ["run", "--netwrk", "mainnet", "--out", "$O"],
    exit: 2,
    message: /^chainetl: --netwrk: chainetl run has no flag --netwrk \(did you mean --network\?\)/,
    notMessage: /unknown dataset/
  },
  {
    name: "a misspelled dataset",
    argv: ["run", "delegatrs", "--out", "$O"],
    exit: 2,
    message: /^chainetl: dataset: unknown dataset delegatrs \(did you mean delegators\?\)\. Fix: write delegators/
  },
  {
    name: "a misspelled command",
    argv: ["rnu", "--out", "$O"],
    exit: 2,
    message: /^chainetl: command: unknown command rnu \(did you mean run\?\)/
  },
  {
    name: "a flag value of the wrong type",
    argv: ["run", "--concurrency", "many", "--out", "$O"],
    exit: 2,
    message: /^chainetl: --concurrency: 'many' is not a integer\. Fix: see chainetl run --help/
  },
  {
    name: "a part bound of no megabytes",
    argv: ["run", "--part-mb", "0", "--out", "$O"],
    exit: 2,
    message: /--part-mb: got 0\. Fix: pass a whole number of megabytes ≥ 1/
  },
  {
    name: "a job that is not JSON",
    argv: ["run", "--emulator", "--job", "$S/job.json", "--out", "$O"],
    job: `{\n  "evmChains": ["43114"],\n  "networks": ]\n}\n`,
    exit: 2,
    message: /job\.json: not JSON: line 3, column 15: Object value expected after ':'\. Fix: make the job file valid JSON/
  },
  {
    name: "a wrong job value (the path said once, the likely spelling offered)",
    argv: ["run", "--emulator", "--job", "$S/job.json", "--out", "$O"],
    job: `{ "networks": ["mainet"] }`,
    exit: 2,
    message: /job\.json: networks\.0: expected "mainnet" or "fuji", got "mainet" \(did you mean mainnet\?\)\. Fix:/,
    notMessage: /networks.*networks/
  },
  {
    name: "a misspelled job field",
    argv: ["run", "--emulator", "--job", "$S/job.json", "--out", "$O"],
    job: `{ "evmChain": [43114] }`,
    exit: 2,
    message: /job\.json: evmChain: not a job field \(did you mean evmChains\?\)/
  },
  {
    name: "a JSON number too large for a JS number where one is needed",
    argv: ["run", "--emulator", "--job", "$S/job.json", "--out", "$O"],
    job: `{ "metrics": { "startTimestamp": 123456789012345678901 } }`,
    exit: 2,
    message: /job\.json: metrics\.startTimestamp: expected a whole number, got 123456789012345678901/
  },
  {
    name: "CHAINETL_API_KEYS with an entry that is not name=key (the entry numbered, its text never shown)",
    argv: ["run", "--emulator", "delegators", "--out", "$O"],
    env: { CHAINETL_API_KEYS: "alpha=ka-1,ThisLooksLikeASecret" },
    exit: 2,
    message: /^chainetl: CHAINETL_API_KEYS: entry 2 is not name=key with a name of letters, digits, _ \. - \(at most 40\)\. Fix: export CHAINETL_API_KEYS=alpha=<key>,beta=<key>/,
    notMessage: /ThisLooksLikeASecret|ka-1/
  },
  {
    name: "CHAINETL_API_KEY and CHAINETL_API_KEYS both set",
    argv: ["run", "--emulator", "delegators", "--out", "$O"],
    env: { CHAINETL_API_KEY: "k-single", CHAINETL_API_KEYS: "alpha=ka-1" },
    exit: 2,
    message: /^chainetl: CHAINETL_API_KEY, CHAINETL_API_KEYS: both are set\. Fix: unset CHAINETL_API_KEY and list every key in CHAINETL_API_KEYS \(its key as default=<key> keeps its name\)/,
    notMessage: /k-single|ka-1/
  },
  {
    name: "a job budget for a key the environment does not have",
    argv: ["run", "--emulator", "delegators", "--job", "$S/job.json", "--out", "$O"],
    env: { CHAINETL_API_KEYS: "alpha=ka-1" },
    job: `{ "apiKeys": { "beta": { "rate": 5 } } }`,
    exit: 2,
    message: /job\.json: apiKeys\.beta: a budget for key 'beta', but the keys set are alpha\. Fix: add beta=<key> to CHAINETL_API_KEYS, or remove apiKeys\.beta from the job/,
    notMessage: /ka-1/
  },
  {
    name: "a job budget that is not a positive rate",
    argv: ["run", "--emulator", "delegators", "--job", "$S/job.json", "--out", "$O"],
    job: `{ "apiKeys": { "alpha": { "rate": 0, "burst": 2 } } }`,
    exit: 2,
    message: /job\.json: apiKeys\.alpha\.rate: expected a positive number of requests per second, got 0/
  },
  {
    name: "a run of delegators alone asks only for the chain-data URL",
    argv: ["run", "delegators", "--out", "$O"],
    exit: 2,
    message: /^chainetl: CHAINETL_BASE_URL: not set; expected an http\(s\) URL of the chain-data REST service\. Fix: export CHAINETL_BASE_URL=/,
    notMessage: /METRICS|NODE/
  },
  {
    name: "every missing setting in one message",
    argv: ["run", "delegators", "avg_tps", "current_supply", "--out", "$O"],
    exit: 2,
    message: /^chainetl: CHAINETL_BASE_URL, CHAINETL_METRICS_URL, CHAINETL_NODE_URL: .*Fix: export CHAINETL_BASE_URL=https:\/\/… and export CHAINETL_METRICS_URL=https:\/\/… and export CHAINETL_NODE_URL=https:\/\/…/
  },
  {
    name: "a bad setting beside a missing one",
    argv: ["run", "delegators", "avg_tps", "--out", "$O"],
    env: { CHAINETL_BASE_URL: "ftp://example" },
    exit: 2,
    message: /CHAINETL_BASE_URL, CHAINETL_METRICS_URL: CHAINETL_BASE_URL expected an http\(s\) URL, got 'ftp:\/\/example'; CHAINETL_METRICS_URL not set/
  },
  {
    name: "a CHAINETL_SINK_MEMORY that is neither fast nor lean",
    argv: ["run", "--emulator", "delegators", "--out", "$O"],
    env: { CHAINETL_SINK_MEMORY: "small" },
    exit: 2,
    message: /^chainetl: CHAINETL_SINK_MEMORY: "small" is not fast or lean\. Fix: export CHAINETL_SINK_MEMORY=fast \(less CPU\) or CHAINETL_SINK_MEMORY=lean \(less peak memory\), or unset it/
  },
  {
    name: "catalog --out on a folder that holds no output",
    argv: ["catalog", "--out", "$S"],
    given: async (s) => void (await fs.writeFile(path.join(s, "notes.txt"), "mine")),
    exit: 2,
    message: /^chainetl: --out: .* holds no chainetl output \(no _state, _runs or dataset folder\)/
  },
  {
    name: "catalog --out on a folder that does not exist",
    argv: ["catalog", "--out", "$O"],
    exit: 2,
    message: /^chainetl: --out: .*\/out: no such folder/
  },
  {
    name: "report --out on a folder without a catalog",
    argv: ["report", "--out", "$S"],
    exit: 2,
    message: /^chainetl: --out: no catalog at .*\/catalog\.duckdb\. Fix: pass the output folder of a run with --out, or run chainetl catalog there/
  },
  {
    name: "report --file in a folder that does not exist",
    argv: ["report", "--out", "$S", "--file", "$S/nope/report.html"],
    given: async (s) => void (await fs.writeFile(path.join(s, "catalog.duckdb"), "")),
    exit: 2,
    message: /^chainetl: --file: no folder .*\/nope\. Fix: create the folder first, or name a file in an existing one/
  },
  {
    name: "report --file naming a folder",
    argv: ["report", "--out", "$S", "--file", "$S"],
    given: async (s) => void (await fs.writeFile(path.join(s, "catalog.duckdb"), "")),
    exit: 2,
    message: /^chainetl: --file: .* is a folder\. Fix: name a file, e.g\. --file .*\/report\.html/
  }
]

/** Every path under `dir` with its type and content, so any change shows. */
const snapshot = async (dir: string): Promise<string[]> => {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return Promise.all(
    entries.map(async (e) => {
      const p = path.join(e.parentPath, e.name)
      return e.isFile() ? `${p} ${await fs.readFile(p, "utf8")}` : `${p}/`
    })
  ).then((l) => l.sort())
}

/** The service variables unset, so a row's run sees only the variables it gives. */
const withoutServiceVars = (env: Readonly<Record<string, string>>) => ({ ...Object.fromEntries(SERVICE_VARS.map((k) => [k, undefined])), ...env })

const asUser = async (uid: number, argv: ReadonlyArray<string>, env: Readonly<Record<string, string>>) => {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SERVICE_VARS.includes(k)))
  // the other user must reach the program itself, or the row would test Node's MODULE_NOT_FOUND
  const reach = await promisify(execFile)(process.execPath, [BIN, "--version"], { uid, gid: uid }).then(
    () => undefined,
    (e: { stderr?: string }) => String(e.stderr ?? e)
  )
  if (reach !== undefined) {
    throw new Error(`uid ${uid} cannot run ${BIN} (every folder above the checkout must be traversable by others, e.g. chmod o+x): ${reach.split("\n")[0]}`)
  }
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, ...argv], { env: { ...clean, ...env, HOME: os.tmpdir() }, uid, gid: uid })
    return { code: 0, stderr: r.stderr }
  } catch (e) {
    const err = e as { code: number; stderr: string }
    return { code: err.code, stderr: err.stderr }
  }
}

describe("chainetl, given bad input", () => {
  let root: string
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-badinput-"))
    await fs.chmod(root, 0o755)
  })
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true })
  })

  for (const row of rows) {
    it(`given ${row.name}, when run, then exit ${row.exit}, one clear line, nothing written`, async ({ skip, cli }) => {
      skip(row.skip !== undefined, row.skip)
      const sandbox = await fs.mkdtemp(path.join(root, "row-"))
      const fill = (a: string) => a.replaceAll("$O", path.join(sandbox, "out")).replaceAll("$S", sandbox)
      if (row.job !== undefined) await fs.writeFile(path.join(sandbox, "job.json"), row.job)
      const cleanup = await row.given?.(sandbox)
      try {
        const before = await snapshot(sandbox)
        const argv = row.argv.map(fill)
        const result = row.uid === undefined ? await cli(argv, withoutServiceVars(row.env ?? {})) : await asUser(row.uid, argv, row.env ?? {})
        expect(result.stderr).toMatch(row.message)
        if (row.notMessage !== undefined) expect(result.stderr).not.toMatch(row.notMessage)
        // one line, no stack trace
        expect(result.stderr.trim().split("\n")).toHaveLength(1)
        expect(result.stderr).not.toMatch(/\n\s+at /)
        expect(result.code).toBe(row.exit)
        expect(await snapshot(sandbox)).toEqual(before)
      } finally {
        if (cleanup) await cleanup()
      }
    })
  }
})

describe("job numbers, given where a person writes numbers", () => {
  it("given chain ids, windows and a 30-digit threshold as JSON numbers, when the job is read, then they are the exact decimal text", async ({ out }) => {
    const file = path.join(out, "job.json")
    await fs.writeFile(
      file,
      `{ "evmChains": [43114, "43113"], "transferBlockWindow": 5000, "nodeHeightWindow": 250,
         "tokenHolders": [{ "chainId": 43114, "address": "0x00000000000000000000000000000000000000a1", "threshold": 123456789012345678901234567890 }],
         "metrics": { "startTimestamp": 1700000000 } }`
    )
    const job = await loadJobFile(file)
    expect(Either.isRight(job)).toBe(true)
    const j = Either.getOrThrow(job)
    expect(j.evmChains).toEqual(["43114", "43113"])
    expect(j.transferBlockWindow).toBe("5000")
    expect(j.nodeHeightWindow).toBe("250")
    expect(j.tokenHolders[0]?.threshold).toBe("123456789012345678901234567890")
    expect(j.metrics.startTimestamp).toBe(1700000000)
  })
})
