/**
 * Which Chromium the tests drive, and the environment it needs.
 *
 * CHAINETL_TEST_CHROMIUM when set (any Chromium or Chrome binary, run with the tests' own
 * environment). Otherwise, on Linux x64, the one `npm install` brings: the devDependency
 * `@sparticuz/chromium` carries a headless Chromium for Linux x64, brotli-compressed in its bin/
 * folder with the libraries it needs beyond glibc (NSS, NSPR, expat: al2023.tar.br), SwiftShader
 * and a font (Open Sans) with its fontconfig file. They are unpacked once into
 * node_modules/.cache/chainetl-chromium-<version>/ (a few seconds; made in a folder of its own
 * and renamed into place, so a process never sees half of it) and the browser is started with
 * those libraries and that font only, whatever the machine has installed. The package's own
 * JavaScript is not used: it unpacks to fixed /tmp paths shared by every checkout and version,
 * and checks a file's existence, not its completeness.
 *
 * Elsewhere (macOS, Linux on ARM, Windows) the package has no binary: CHAINETL_TEST_CHROMIUM
 * must name one, and the browser tests fail saying so until it does.
 */
import { execFile } from "node:child_process"
import { createReadStream, createWriteStream, existsSync, promises as fs, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { pipeline } from "node:stream/promises"
import { promisify } from "node:util"
import { createBrotliDecompress } from "node:zlib"

export interface ChromiumBinary {
  readonly executable: string
  /** The environment the browser is started with. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Where it came from: "CHAINETL_TEST_CHROMIUM" or "@sparticuz/chromium <version>". */
  readonly source: string
}

const run = promisify(execFile)

const PACKAGE = "@sparticuz/chromium"

/** The package's folder: the nearest above its entry point whose package.json names it. */
const packageRoot = (): string => {
  let dir: string
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve(PACKAGE))
  } catch {
    throw new Error(`no browser for the tests: ${PACKAGE} is not installed. Run npm install (or set CHAINETL_TEST_CHROMIUM to a Chromium binary)`)
  }
  for (;;) {
    const manifest = path.join(dir, "package.json")
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === PACKAGE) return dir
    const up = path.dirname(dir)
    if (up === dir) throw new Error(`cannot find ${PACKAGE}'s folder above its entry point`)
    dir = up
  }
}

/** Decompresses a .br file to `to`. */
const unbrotli = (from: string, to: string, mode: number) => pipeline(createReadStream(from), createBrotliDecompress(), createWriteStream(to, { mode }))

/**
 * Decompresses a .tar.br file and extracts it into `dir` with the system's tar (from a file: tar
 * stops reading a pipe at the archive's end marker, leaving the writer a closed pipe).
 */
const untarBrotli = async (from: string, dir: string): Promise<void> => {
  const tarFile = path.join(dir, `${path.basename(from, ".br")}.unpacking`)
  await unbrotli(from, tarFile, 0o600)
  await run("tar", ["-x", "--no-same-owner", "-f", tarFile, "-C", dir]).catch((e: { message: string; stderr?: string }) => {
    throw new Error(`tar could not extract ${from}: ${e.stderr?.trim() || e.message}`)
  })
  await fs.rm(tarFile)
}

/** Only the package's font, its cache beside it. */
const fontsConf = (dir: string) => `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${path.join(dir, "fonts")}</dir>
  <cachedir>${path.join(dir, "fonts-cache")}</cachedir>
</fontconfig>
`

/** Unpacks the package's files into `dir` unless a complete copy is there; returns `dir`. */
const unpack = async (bin: string, dir: string): Promise<string> => {
  if (existsSync(dir)) return dir
  await fs.mkdir(path.dirname(dir), { recursive: true })
  const partial = await fs.mkdtemp(`${dir}.partial-`)
  try {
    await Promise.all([
      unbrotli(path.join(bin, "chromium.br"), path.join(partial, "chromium"), 0o755),
      // libEGL, libGLESv2, SwiftShader: looked up beside the binary
      untarBrotli(path.join(bin, "swiftshader.tar.br"), partial),
      // lib/: NSS, NSPR, expat
      untarBrotli(path.join(bin, "al2023.tar.br"), partial),
      // fonts/ (and a fonts.conf for Lambda's paths, replaced below)
      untarBrotli(path.join(bin, "fonts.tar.br"), partial)
    ])
    await fs.writeFile(path.join(partial, "fonts.conf"), fontsConf(dir))
    // mkdtemp made it 0700: another user of the checkout may run the same browser
    await fs.chmod(partial, 0o755)
    await fs.rename(partial, dir).catch(async (e: NodeJS.ErrnoException) => {
      // another test process finished first: use its copy
      if (!existsSync(dir)) throw e
    })
  } finally {
    await fs.rm(partial, { recursive: true, force: true })
  }
  return dir
}

let found: Promise<ChromiumBinary> | undefined

const lookUp = async (): Promise<ChromiumBinary> => {
  const given = process.env["CHAINETL_TEST_CHROMIUM"]
  if (given !== undefined && given !== "") {
    if (!existsSync(given)) throw new Error(`CHAINETL_TEST_CHROMIUM=${given}: no such file`)
    return { executable: given, env: process.env, source: "CHAINETL_TEST_CHROMIUM" }
  }
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`no browser for the tests on ${process.platform}/${process.arch}: ${PACKAGE} carries Chromium for Linux x64 only. Set CHAINETL_TEST_CHROMIUM to a Chromium or Chrome binary`)
  }
  const root = packageRoot()
  const { version } = JSON.parse(await fs.readFile(path.join(root, "package.json"), "utf8")) as { version: string }
  // node_modules/@sparticuz/chromium -> node_modules/.cache
  const dir = await unpack(path.join(root, "bin"), path.join(root, "..", "..", ".cache", `chainetl-chromium-${version}`))
  const libs = path.join(dir, "lib")
  const ld = process.env["LD_LIBRARY_PATH"]
  return {
    executable: path.join(dir, "chromium"),
    env: { ...process.env, LD_LIBRARY_PATH: ld ? `${libs}:${ld}` : libs, FONTCONFIG_FILE: path.join(dir, "fonts.conf") },
    source: `${PACKAGE} ${version}`
  }
}

/** The browser's binary and environment, looked up (and unpacked) once a process. */
export const chromiumBinary = (): Promise<ChromiumBinary> =>
  (found ??= lookUp().catch((e: unknown) => {
    found = undefined
    throw e
  }))
