import { defineConfig } from "vitest/config"
import { tiers } from "./test/support/tiers.ts"

/**
 * Three projects, one per tier, each file placed by what it loads (test/support/tiers.ts):
 * `unit` needs no server and no child process, `integration` serves HTTP in the process (the
 * emulator, proxies, stub servers), `system` starts programs (the CLI, PostgreSQL, s3rver,
 * Chromium, kill campaigns). `npm test` runs all three; `vitest run --project unit` one of them.
 */
const files = tiers()

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // two cores on CI: keep worker count at the core count so emulator-backed tests do not starve
    maxWorkers: 2,
    minWorkers: 1,
    isolate: false,
    // memory tests measure the heap after a collection, not the garbage earlier files left
    poolOptions: { forks: { execArgv: ["--expose-gc"] } },
    // dt-sql-parser ships ES modules with directory imports that only a bundler resolves
    server: { deps: { inline: ["dt-sql-parser"] } },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: files.unit.map((f) => f.file),
          // a unit file that starts a process or a server fails saying so
          setupFiles: ["test/support/unitGuard.ts"],
          provide: { tier: "unit" }
        }
      },
      {
        extends: true,
        // a describe's `{ timeout }` does not reach tests made by test.extend (vitest-dev/vitest#8277,
        // CONTRIBUTING.md), so the files whose first test waits for a file's crawl get their 120 s here
        test: { name: "integration", include: files.integration.map((f) => f.file), provide: { tier: "integration" }, testTimeout: 120_000 }
      },
      {
        extends: true,
        test: {
          name: "system",
          include: files.system.map((f) => f.file),
          provide: { tier: "system" },
          testTimeout: 120_000,
          // builds dist/ first when the sources are newer (the CLI's processes then skip tsx)
          globalSetup: ["test/support/freshDist.ts"]
        }
      }
    ]
  }
})
