/** Source settings for tests against a fake server: fast backoff, short waits. */
import { Layer } from "effect"
import type { SourceSettingsInput } from "../../src/Config.ts"
import { sourceLayerWith } from "../../src/source/SourceLayer.ts"

/** Retries for tests against a stub server (testSettings); crawls of the emulator take spine.ts's emulatorRetry. */
export const stubServerRetry = {
  baseDelayMs: 5,
  maxDelayMs: 20,
  retryAfterMinMs: 50,
  retryAfterMaxMs: 3_000,
  maxRateLimitedRetries: 5
}

/** Every service on `url`, generous limits, fast retries; `overrides` win. */
export const testSettings = (url: string, overrides: SourceSettingsInput = {}): SourceSettingsInput => ({
  baseUrl: url,
  metricsUrl: url,
  nodeUrl: url,
  timeoutMs: 2_000,
  maxRetries: 3,
  rateLimit: 1_000,
  concurrency: 16,
  ...overrides,
  retry: { ...stubServerRetry, ...overrides.retry }
})

export const testSource = (url: string, overrides: SourceSettingsInput = {}) =>
  sourceLayerWith(testSettings(url, overrides)).pipe(Layer.orDie)
