// Loaded with `node --import` when GNU time is missing: appends this process's CPU and peak RSS
// (all its threads) to BENCH_USAGE_FILE at exit.
import { appendFileSync } from "node:fs"

process.on("exit", () => {
  const u = process.resourceUsage()
  appendFileSync(process.env.BENCH_USAGE_FILE, `${JSON.stringify({ pid: process.pid, user: u.userCPUTime / 1e6, system: u.systemCPUTime / 1e6, maxRssKb: u.maxRSS })}\n`)
})
