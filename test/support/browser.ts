/**
 * A real headless browser for tests that look at a page as a person would: the Chromium
 * `npm install` brings (`chromiumBinary.ts`; CHAINETL_TEST_CHROMIUM names another), driven by
 * playwright-core, which downloads nothing. Each launch gets a fresh profile folder, removed on
 * close, and no background traffic.
 */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"
import { chromiumBinary } from "./chromiumBinary.ts"

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

export interface Browser {
  readonly context: BrowserContext
  close(): Promise<void>
}

export const launchChromium = async (viewport = { width: 1280, height: 900 }): Promise<Browser> => {
  const binary = await chromiumBinary()
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-chromium-"))
  const context = await chromium
    .launchPersistentContext(profile, { executablePath: binary.executable, env: binary.env, headless: true, args: ARGS, viewport })
    .catch(async (e: Error) => {
      await fs.rm(profile, { recursive: true, force: true })
      throw new Error(`could not start ${binary.executable} (${binary.source}): ${e.message}`)
    })
  return {
    context,
    close: async () => {
      await context.close()
      await fs.rm(profile, { recursive: true, force: true })
    }
  }
}

/** A page and what it did while loading: every request it made, console errors, uncaught errors. */
export interface Watched {
  readonly page: Page
  readonly requests: string[]
  readonly errors: string[]
}

/**
 * Opens `file` as a person would (a file: URL). Every request is recorded; any but the page's own
 * file is aborted, so a page that tried to reach the network shows it here without reaching it.
 */
export const openFile = async (browser: Browser, file: string): Promise<Watched> => {
  const page = await browser.context.newPage()
  const requests: string[] = []
  const errors: string[] = []
  const own = `file://${file}`
  page.on("request", (r) => void requests.push(r.url()))
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text())
  })
  page.on("pageerror", (e) => void errors.push(e.message))
  await page.route("**/*", (route) => (route.request().url() === own ? route.continue() : route.abort()))
  await page.goto(own, { waitUntil: "load" })
  return { page, requests, errors }
}

/** Pixels of a PNG region that are not the background, and how many colours it holds (decoded by the browser's own canvas). */
export interface Ink {
  readonly inked: number
  readonly colours: number
}

/**
 * In the browser (plain JavaScript: the project's types have no DOM): decodes a PNG and measures
 * regions of it, each as pixels unlike white and distinct colours (quantized to 5 bits a channel,
 * so anti-aliased edges do not count).
 */
const INK = `async ({ data, regions }) => {
  const image = new Image()
  image.src = "data:image/png;base64," + data
  await image.decode()
  const canvas = new OffscreenCanvas(image.width, image.height)
  const ctx = canvas.getContext("2d")
  ctx.drawImage(image, 0, 0)
  return regions.map((r) => {
    const x = Math.round(r.x), y = Math.round(r.y)
    const w = Math.max(1, Math.min(Math.round(r.width), image.width - x))
    const h = Math.max(1, Math.min(Math.round(r.height), image.height - y))
    const px = ctx.getImageData(x, y, w, h).data
    const colours = new Set()
    let inked = 0
    for (let i = 0; i < px.length; i += 4) {
      if (px[i] < 245 || px[i + 1] < 245 || px[i + 2] < 245) inked++
      colours.add(((px[i] >> 3) << 10) | ((px[i + 1] >> 3) << 5) | (px[i + 2] >> 3))
    }
    return { inked, colours: colours.size }
  })
}`

/** Measures regions (in the screenshot's pixels) of `png`, decoded by the browser's own canvas in a blank page. */
export const inkOf = async (browser: Browser, png: Buffer, regions: ReadonlyArray<{ x: number; y: number; width: number; height: number }>): Promise<Ink[]> => {
  const page = await browser.context.newPage()
  try {
    return (await page.evaluate(`(${INK})(${JSON.stringify({ data: png.toString("base64"), regions })})`)) as Ink[]
  } finally {
    await page.close()
  }
}
