import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // two cores on CI: keep worker count at the core count so emulator-backed tests do not starve
    maxWorkers: 2,
    minWorkers: 1,
    // dt-sql-parser ships ES modules with directory imports that only a bundler resolves
    server: { deps: { inline: ["dt-sql-parser"] } }
  }
})
