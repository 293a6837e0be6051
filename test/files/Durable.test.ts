import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { replaceFile } from "../../src/files/Durable.ts"

let dir = ""
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-durable-"))
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

const namesIn = async (d: string) => (await fs.readdir(d)).sort()

describe("replaceFile", () => {
  it("given a file, when replaced with text, then it holds the new text and nothing else is left beside it", async () => {
    const file = path.join(dir, "state.json")
    await fs.writeFile(file, "old")

    await replaceFile(file, '{"seq":2}\n')

    expect(await fs.readFile(file, "utf8")).toBe('{"seq":2}\n')
    expect(await namesIn(dir)).toEqual(["state.json"])
  })

  it("given folders that do not exist yet, when a file is replaced in them, then they are made", async () => {
    const file = path.join(dir, "a", "b", "report.json")

    await replaceFile(file, "{}")

    expect(await fs.readFile(file, "utf8")).toBe("{}")
  })

  it("given folders that do not exist yet, when a writer fills the file, then they are made before it writes", async () => {
    const file = path.join(dir, "c", "d", "catalog.duckdb")

    await replaceFile(file, (tmp) => fs.writeFile(tmp, "built"))

    expect(await fs.readFile(file, "utf8")).toBe("built")
    expect(await namesIn(path.dirname(file))).toEqual(["catalog.duckdb"])
  })

  it("given a writer, when replaced, then the writer fills a temporary name beside the file that then becomes the file", async () => {
    const file = path.join(dir, "catalog.duckdb")
    const seen: string[] = []

    await replaceFile(file, async (tmp) => {
      seen.push(path.basename(tmp), ...(await namesIn(dir)))
      await fs.writeFile(tmp, "built")
    })

    expect(seen[0]).toBe(`catalog.duckdb.tmp-${process.pid}`)
    expect(await fs.readFile(file, "utf8")).toBe("built")
    expect(await namesIn(dir)).toEqual(["catalog.duckdb"])
  })

  it("given a writer that fails halfway, when replaced, then the old file is whole and the half-written temporary is gone", async () => {
    const file = path.join(dir, "manifest.json")
    await fs.writeFile(file, "old and whole")

    const failed = replaceFile(file, async (tmp) => {
      await fs.writeFile(tmp, "half")
      throw new Error("disk full")
    })

    await expect(failed).rejects.toThrow("disk full")
    expect(await fs.readFile(file, "utf8")).toBe("old and whole")
    expect(await namesIn(dir)).toEqual(["manifest.json"])
  })

  it("given syncFolder false, when replaced, then the file is replaced all the same", async () => {
    const file = path.join(dir, "part.parquet")
    await fs.writeFile(file, "old")

    await replaceFile(file, (tmp) => fs.writeFile(tmp, "pulled"), { syncFolder: false })

    expect(await fs.readFile(file, "utf8")).toBe("pulled")
    expect(await namesIn(dir)).toEqual(["part.parquet"])
  })
})
