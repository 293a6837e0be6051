/**
 * The documentation stands on its own: every relative link in the README, CONTRIBUTING.md and
 * docs/ (and the READMEs beside the code) resolves to a file, and an anchor into a Markdown file
 * to one of its headings (GitHub's slugs); every command, flag and environment variable the code
 * defines is named in docs/. The code is read as text: what a command or variable is called is
 * what a user types.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = path.resolve(import.meta.dirname, "../..")
const read = (file: string): string => readFileSync(path.join(ROOT, file), "utf8")
const DOCS = readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)
const PAGES = ["README.md", "CONTRIBUTING.md", "pipelines/README.md", "reference/README.md", ...DOCS]

/** The text outside fenced code blocks, where headings and links live. */
const prose = (text: string): string => text.split(/^```.*$/m).filter((_, i) => i % 2 === 0).join("\n")

/** GitHub's anchor of a heading: lower case, punctuation but hyphens and underscores dropped, spaces to hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-")

const anchorsOf = (file: string): Set<string> => new Set([...prose(read(file)).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] as string)))

const linksOf = (file: string): string[] => [...prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).filter((l) => !/^[a-z]+:/.test(l))

/** Every source file below `dir` (recursively), the emulator's aside for the product's names. */
const sources = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === "emulator" ? [] : sources(`${dir}/${e.name}`)) : e.name.endsWith(".ts") ? [`${dir}/${e.name}`] : []
  )

const docsText = (): string => DOCS.map(read).join("\n")

describe("the documentation", () => {
  it("given the README, CONTRIBUTING.md and docs/, when their relative links are followed, then each reaches a file and each anchor a heading of it", () => {
    const broken: string[] = []
    for (const page of PAGES) {
      for (const link of linksOf(page)) {
        const [target = "", anchor] = link.split("#")
        const file = target === "" ? page : path.normalize(path.join(path.dirname(page), target))
        if (!existsSync(path.join(ROOT, file))) broken.push(`${page}: ${link} (no ${file})`)
        else if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(file).has(anchor)) broken.push(`${page}: ${link} (no heading #${anchor} in ${file})`)
      }
    }
    expect(broken).toEqual([])
    expect(PAGES.flatMap(linksOf).length).toBeGreaterThan(100)
  })

  it("given the README, when its lines are counted, then it is a short front page that links every page of docs/", () => {
    const readme = read("README.md")
    expect(readme.split("\n").length).toBeLessThanOrEqual(300)
    for (const page of DOCS) expect(readme, page).toContain(`](${page})`)
  })

  it("given the CLI's source, when its commands and flags are listed, then docs/ names every one", () => {
    const cli = sources("src/cli").map(read).join("\n")
    const commands = [...cli.matchAll(/Command\.make\(\s*"([a-z-]+)"/g)].map((m) => m[1] as string).filter((c) => c !== "chainetl")
    const flags = [...new Set([...cli.matchAll(/Options\.(?:text|integer|boolean|float|choice|file|directory)\(\s*"([a-z][a-z-]*)"/g)].map((m) => m[1] as string))]
    expect(commands.length).toBeGreaterThanOrEqual(9)
    expect(flags.length).toBeGreaterThan(20)
    const text = docsText()
    expect(commands.filter((c) => !text.includes(`chainetl ${c}`))).toEqual([])
    expect(flags.filter((f) => !text.includes(`--${f}`))).toEqual([])
  })

  it("given the product's source, when its environment variables are listed, then docs/ names every one", () => {
    const names = [...new Set(sources("src").flatMap((f) => [...read(f).matchAll(/"(CHAINETL_[A-Z0-9_]+)"/g)].map((m) => m[1] as string)))]
    expect(names.length).toBeGreaterThan(15)
    const text = docsText()
    expect(names.filter((n) => !text.includes(n))).toEqual([])
  })
})
