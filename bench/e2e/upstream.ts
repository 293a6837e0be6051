/**
 * The emulator behind the proxy, started in-process on loopback on the first request the
 * recording lacks (a replay of a complete recording never starts it). Its rate limits are off: it
 * only serves the recording pass, where they would only make recording slow.
 */
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"

export interface Upstream {
  readonly url: () => Promise<string>
  close(): Promise<void>
}

export const lazyEmulator = (seed: number, scale: number): Upstream => {
  let started: Promise<RunningEmulator> | undefined
  return {
    url: async () => {
      started ??= startEmulator({ seed, scale, host: "127.0.0.1", rateLimit: { keylessPerSecond: 0, keyedPerSecond: 0, metricsPerSecond: 0 } })
      return (await started).baseUrl
    },
    close: async () => {
      if (started !== undefined) await (await started).close()
    }
  }
}
