/** `npm run job:emulator`: rewrites pipelines/jobs/emulator.json from the default emulator world. */
import { promises as fs } from "node:fs"
import { fileURLToPath } from "node:url"
import { startEmulator } from "@chainetl/emulator"
import { emulatorJobFile } from "./index.ts"

const target = fileURLToPath(new URL("../../../pipelines/jobs/emulator.json", import.meta.url))
const emu = await startEmulator()
try {
  await fs.writeFile(target, emulatorJobFile(emu))
  console.log(`wrote ${target}`)
} finally {
  await emu.close()
}
