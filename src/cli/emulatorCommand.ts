/**
 * `chainetl emulator`: serves the three interfaces until interrupted, printing their URLs.
 * The CLI is the only pipeline-side code that starts the emulator (and only on request).
 */
import { Effect } from "effect"
import { ConfigError } from "../Errors.ts"
import type { EmulatorOptionsInput } from "@chainetl/emulator"
import { type EmulatorFlags, toEmulatorInput } from "./emulatorOptions.ts"

/** Starts the emulator as a scoped resource: closed when the scope ends (Ctrl-C included). */
export const startScopedEmulator = (input: EmulatorOptionsInput) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const { startEmulator } = await import("@chainetl/emulator")
        return startEmulator(input)
      },
      catch: (e) =>
        e instanceof RangeError
          ? new ConfigError({ reason: "Invalid", field: "emulator flags", detail: e.message, fix: "see `chainetl emulator --help`" })
          : new ConfigError({ reason: "Invalid", field: "emulator", detail: String(e), fix: "check --port is free and the flags are valid" })
    }),
    (emu) => Effect.promise(() => emu.close())
  )

export const runEmulator = (flags: EmulatorFlags) =>
  Effect.scoped(
    Effect.gen(function* () {
      const emu = yield* startScopedEmulator(toEmulatorInput(flags))
      const { describeEmulator } = yield* Effect.promise(() => import("@chainetl/emulator"))
      for (const line of describeEmulator(emu)) console.log(line)
      console.log("Press Ctrl-C to stop.")
      return yield* Effect.never
    })
  )
