/** The emulator's public face: what the CLI and the tests start and configure. */
export { startEmulator, describeEmulator, type RunningEmulator, type EmulatorExtras } from "./server.ts"
export {
  defaultEmulatorOptions,
  defaultNow,
  resolveEmulatorOptions,
  type EmulatorOptions,
  type EmulatorOptionsInput,
  type AuthOptions,
  type RateLimitOptions,
  type FaultOptions
} from "./http/options.ts"
export type { EmulatorStats } from "./http/stats.ts"
