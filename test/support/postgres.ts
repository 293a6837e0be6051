/**
 * A real PostgreSQL for tests: the OS packages' server (initdb, pg_ctl) in a temporary data
 * folder, listening on 127.0.0.1 only at a free port, with a password (scram-sha-256), so a test
 * can check the password never shows. Started as the `postgres` user when the tests run as root
 * (initdb refuses root). fsync is off: the tests check chainetl's ordering, not the disk's.
 *
 * No server binaries is a failure that says what to install, never a silent skip: `.ci/run`
 * installs them.
 */
import { execFile } from "node:child_process"
import { afterAll, beforeAll } from "vitest"
import { existsSync, promises as fs } from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)

const CANDIDATES = ["/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin", "/usr/local/bin", "/usr/bin"]

export const PG_USER = "chainetl"
/** Characters a URL must escape, so the tests also check it is decoded and never echoed. */
export const PG_PASSWORD = "s3cr3t-pg-Pa55/word"

export interface RunningPostgres {
  readonly port: number
  /** postgres://chainetl:<password>@127.0.0.1:<port>/postgres */
  readonly url: string
  readonly dataDir: string
  stop(): Promise<void>
}

const binDir = (): string => {
  const dir = CANDIDATES.find((d) => existsSync(path.join(d, "pg_ctl")) && existsSync(path.join(d, "initdb")))
  if (dir === undefined) {
    throw new Error(
      `PostgreSQL server binaries (initdb, pg_ctl) not found in ${CANDIDATES.join(", ")}: these tests need a real server. ` +
        "Install them (Debian/Ubuntu: apt-get install -y postgresql); .ci/run does"
    )
  }
  return dir
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })

/** Runs a server binary, as `postgres` when we are root. */
const asServerUser = async (bin: string, args: ReadonlyArray<string>): Promise<void> => {
  const root = process.getuid?.() === 0
  const [cmd, argv] = root ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, [...args]]
  try {
    await run(cmd, argv, { timeout: 60_000 })
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string }
    throw new Error(`${path.basename(bin)} failed: ${err.message}\n${err.stdout ?? ""}${err.stderr ?? ""}`)
  }
}

export const startPostgres = async (): Promise<RunningPostgres> => {
  const bin = binDir()
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-pg-"))
  const dataDir = path.join(root, "data")
  const pwfile = path.join(root, "pw")
  await fs.writeFile(pwfile, PG_PASSWORD)
  if (process.getuid?.() === 0) {
    const { stdout } = await run("id", ["-u", "postgres"])
    const { stdout: gid } = await run("id", ["-g", "postgres"])
    await fs.chown(root, Number(stdout.trim()), Number(gid.trim()))
    await fs.chown(pwfile, Number(stdout.trim()), Number(gid.trim()))
  }
  await asServerUser(path.join(bin, "initdb"), ["-D", dataDir, "-U", PG_USER, "--pwfile", pwfile, "--auth", "scram-sha-256", "--no-sync", "-E", "UTF8", "--locale", "C"])
  const port = await freePort()
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -c fsync=off -c full_page_writes=off -c unix_socket_directories=${root}`
  await asServerUser(path.join(bin, "pg_ctl"), ["-D", dataDir, "-o", opts, "-l", path.join(root, "log"), "-w", "-t", "30", "start"])
  let stopped = false
  return {
    port,
    dataDir,
    url: `postgres://${PG_USER}:${encodeURIComponent(PG_PASSWORD)}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      if (stopped) return
      stopped = true
      await asServerUser(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"]).catch(() => undefined)
      await fs.rm(root, { recursive: true, force: true })
    }
  }
}

/**
 * A PostgreSQL for the enclosing `describe` (or file): started before its tests, stopped after.
 * The returned function gives the running server inside a test.
 */
export const postgresForTests = (): (() => RunningPostgres) => {
  let pg: RunningPostgres | undefined
  beforeAll(async () => {
    pg = await startPostgres()
  }, 60_000)
  afterAll(async () => {
    await pg?.stop()
  })
  return () => {
    if (pg === undefined) throw new Error("PostgreSQL is not running: call postgresForTests() in a describe, use it in a test")
    return pg
  }
}
