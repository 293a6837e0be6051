/**
 * The last line of a run that failed (src/cli/exitCode.ts RunFailed): broken checkpoints among
 * the failures name their file and fix there, where cron's log shows it, since rerunning alone
 * would fail again.
 */
import { describe, expect, it } from "vitest"
import { brokenCheckpoints, RunFailed } from "../../src/cli/exitCode.ts"
import { CheckpointError } from "../../src/Errors.ts"

const broken = (file: string) => new CheckpointError({ reason: "Corrupt", slice: "s", file, detail: "not valid JSON: Unexpected end of JSON input" }).message

describe("RunFailed", () => {
  it("given a windowed dataset not planned over a broken checkpoint and a slice failed by the network, when the broken ones are picked, then only the checkpoint's error is, without the dataset's prefix", () => {
    const slices = [
      { status: "failed", error: `staking_transactions not planned: ${broken("/o/_state/checkpoints/staking_transactions/w1.json")}` },
      { status: "failed", error: "GET /v1/networks/mainnet/delegators: 503 after 6 attempts" },
      { status: "done" }
    ]
    expect(brokenCheckpoints(slices)).toEqual([broken("/o/_state/checkpoints/staking_transactions/w1.json")])
  })

  it("given five broken checkpoints, when the last line is written, then it names three with their fix, counts the rest and says to rerun once fixed", () => {
    const files = [1, 2, 3, 4, 5].map((i) => `/o/_state/checkpoints/delegators/d${i}.json`)
    const message = new RunFailed({ reason: "SlicesFailed", failed: files.map((_, i) => `delegators/d${i + 1}`), broken: files.map(broken), report: "/o/_runs/r.json" }).message
    expect(message).toBe(
      "5 slice(s) failed: delegators/d1, delegators/d2, delegators/d3, delegators/d4, delegators/d5. " +
        files.slice(0, 3).map((f) => `${broken(f)}.`).join(" ") +
        " 2 more broken checkpoint(s) in the report. Details in /o/_runs/r.json; once fixed, rerun the same command."
    )
  })

  it("given failures without a broken checkpoint, when the last line is written, then it is as before: rerun to resume", () => {
    expect(new RunFailed({ reason: "SlicesFailed", failed: ["delegators/d1"], broken: [], report: "/o/_runs/r.json" }).message).toBe(
      "1 slice(s) failed: delegators/d1. Details in /o/_runs/r.json; rerun the same command to resume them."
    )
  })
})
