/**
 * crawledOnce gives each file's tests their own crawl: crawls declared one after another (as the
 * files of one worker declare theirs, their modules shared under isolate: false) never run for
 * one another's tests.
 */
import { describe, expect } from "vitest"
import { crawledOnce } from "./crawledOnce.ts"

const made: string[] = []
const first = crawledOnce("first", "shared", async () => (made.push("first"), "first's crawl"))
// declared between the two and asked by no test: its crawl must never run
crawledOnce("unused", "shared", async () => {
  made.push("unused")
  throw new Error("the unused crawl ran for another's test")
})
const second = crawledOnce("second", "shared", async () => (made.push("second"), "second's crawl"))

describe("crawledOnce", () => {
  second("given crawls declared before it, when the last one's test asks, then it gets its own crawl and none of the others' runs", ({ crawled }) => {
    expect(crawled).toBe("second's crawl")
    expect(made).not.toContain("unused")
  })

  first("given crawls declared after it, when the first one's test asks, then it gets its own crawl", ({ crawled }) => {
    expect(crawled).toBe("first's crawl")
    expect(made).not.toContain("unused")
  })

  first("given the first's crawl, when another of its tests asks, then it gets the same crawl, made once", ({ crawled }) => {
    expect(crawled).toBe("first's crawl")
    expect(made.filter((m) => m === "first")).toEqual(["first"])
  })
})
