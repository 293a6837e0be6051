import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { keyOf, RecordStore } from "../../bench/e2e/cache.ts"
import { benchDatasets, copyId, copyRecord } from "../../bench/e2e/datasets.ts"
import { elementsOf, membersOf, topLevelString } from "../../bench/e2e/jsonText.ts"
import { decodeToken, encodeToken, pageText, readSourcePage, repeatedPages, spreadRecords } from "../../bench/e2e/repeatedPages.ts"

const staking = benchDatasets.find((d) => d.name === "staking_transactions")!
const primary = benchDatasets.find((d) => d.name === "primary_blocks")!
const LISTING = "/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking"
const HASHES = [
  "2NqNJXG1qKXrfqofNc352LfVJCKrMD5mFj7C7C9MUCzfWJy79H",
  "12R12A4jR7hGMhK8qSgAvv1ftQtss5Tes1CVwPyYChJKGJh1p",
  "2Xyz4jR7hGMhK8qSgAvv1ftQtss5Tes1CVwPyYChJKGJh1pQB",
  "2k5Tes1CVwPyYChJKGJh1pQB4jR7hGMhK8qSgAvv1ftQtss5T",
  "fZuV9UHz6ehiGZVwRbxcoQqsu5dLGkKXZZfj72fs86Tp5aBhc"
]
const tx = (i: number, height: number) => ({
  txHash: HASHES[i],
  txType: "AddPermissionlessValidatorTx",
  blockTimestamp: 1700000000 + height,
  blockNumber: String(height),
  consumedUtxos: [{ consumingTxHash: HASHES[i], consumingBlockNumber: String(height), blockNumber: "0", amount: "18446744073709551617" }]
})
// block 102's records span the two pages
const PAGE_1 = JSON.stringify({ nextPageToken: "tok2", transactions: [tx(0, 101), tx(1, 102), tx(2, 102)], chainInfo: { chainName: "p-chain" } })
const PAGE_2 = JSON.stringify({ transactions: [tx(3, 102), tx(4, 103)], chainInfo: { chainName: "p-chain" } })
const LOOKUP = "/v1/networks/mainnet/blockchains/p-chain/blocks?pageSize=1"
const LOOKUP_BODY = JSON.stringify({ nextPageToken: "b2", blocks: [{ blockNumber: "7" }] })

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "repeated-pages-"))
  const store = RecordStore.open(dir)
  const put = (url: string, body: string) => store.put(keyOf({ method: "GET", url, body: Buffer.alloc(0) }), 200, "application/json", Buffer.from(body))
  put(`${LISTING}?pageSize=4&sortOrder=asc`, PAGE_1)
  put(`${LISTING}?pageSize=4&sortOrder=asc&pageToken=tok2`, PAGE_2)
  put(LOOKUP, LOOKUP_BODY)
  store.close()
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe("JSON text read without parsing its values (bench/e2e/jsonText.ts)", () => {
  it("given an object with brackets and quotes inside strings and a 20-digit integer, when its members and an array's elements are read, then each is its exact text", () => {
    const text = ' { "a" : "x]}\\"{" , "items":[ {"n":18446744073709551617,"s":"],"} ,[1,[2]] , "z" ], "b":null}'
    const members = membersOf(text)
    expect(members.map((m) => m.key)).toEqual(["a", "items", "b"])
    const items = members[1]!
    expect(elementsOf(text, items.valueStart, items.valueEnd)).toEqual(['{"n":18446744073709551617,"s":"],"}', "[1,[2]]", '"z"'])
    expect(topLevelString(text, "a")).toBe('x]}"{')
    expect(topLevelString(text, "b")).toBeUndefined()
    expect(topLevelString('{"c":{"blockNumber":"5"},"blockNumber":"7"}', "blockNumber")).toBe("7")
  })
})

describe("a case served from a smaller case's recording, every record copied side by side (bench --pages-of)", () => {
  it("given a state, when made a token and read back, then it is the same; a token of another kind is refused", () => {
    const state = { prev: "", cur: "tok2", off: 7 }
    expect(decodeToken(encodeToken(state))).toEqual(state)
    expect(decodeToken(encodeToken({ prev: null, cur: "", off: 0 }))).toEqual({ prev: null, cur: "", off: 0 })
    expect(decodeToken("tok2")).toBeUndefined()
    expect(decodeToken("rsbm90IGpzb24")).toBeUndefined()
  })

  it("given a record, when copied, then copy 0 keeps its hash, copy 2 has its own, and every block number h is h × 3 + copy with amounts exact", () => {
    const record = JSON.stringify(tx(0, 101))
    const copy0 = JSON.parse(copyRecord(record, 0, 3, "txHash")) as ReturnType<typeof tx>
    const copy2 = JSON.parse(copyRecord(record, 2, 3, "txHash")) as ReturnType<typeof tx>
    expect(copy0.txHash).toBe(HASHES[0])
    expect(copy0.blockNumber).toBe("303")
    expect(copy2.txHash).toBe(copyId(HASHES[0]!, 2))
    expect(copy2.blockNumber).toBe("305")
    // the record's other ids stay as they were: they are no key of the table
    expect(copy2.consumedUtxos[0]).toEqual({ consumingTxHash: HASHES[0], consumingBlockNumber: "305", blockNumber: "2", amount: "18446744073709551617" })
    expect(copyRecord(record, 2, 3, "txHash")).toContain('"amount":"18446744073709551617"')
  })

  it("given a block's records across two source pages, when each page is spread, then the first page ends before the block and the second holds all its copies together", () => {
    const p1 = readSourcePage(PAGE_1, "transactions")
    const p2 = readSourcePage(PAGE_2, "transactions")
    const heights = (records: ReadonlyArray<string>) => records.map((r) => topLevelString(r, "blockNumber"))
    expect(heights(spreadRecords(undefined, p1, p2, 2, staking.repeat!))).toEqual(["202", "203", "204", "204", "204", "205", "205", "205"])
    expect(heights(spreadRecords(p1, p2, undefined, 2, staking.repeat!))).toEqual(["206", "207"])
    // within a copy the block's records keep their source order
    const block = spreadRecords(undefined, p1, p2, 2, staking.repeat!).slice(2, 5).map((r) => topLevelString(r, "txHash"))
    expect(block).toEqual([HASHES[1], HASHES[2], HASHES[3]])
    // a page wholly inside the block before and after it: its copies could not be kept together
    const inside = readSourcePage(JSON.stringify({ transactions: [tx(3, 102)] }), "transactions")
    expect(() => spreadRecords(p1, inside, p2, 2, staking.repeat!)).toThrow(/three source pages/)
  })

  it("given pages whose token comes after the records or between members, when read and served again, then each holds one token, the one given", () => {
    const last = readSourcePage('{"blocks":[{"blockNumber":"1"}],"nextPageToken":"src"}', "blocks")
    const middle = readSourcePage('{"a":1, "nextPageToken" : "src" ,"blocks":[{"blockNumber":"1"}]}', "blocks")
    expect([last.next, middle.next]).toEqual(["src", "src"])
    expect(JSON.parse(pageText(last, ['{"blockNumber":"5"}'], "ours"))).toEqual({ nextPageToken: "ours", blocks: [{ blockNumber: "5" }] })
    expect(JSON.parse(pageText(middle, [], undefined))).toEqual({ a: 1, blocks: [] })
    expect(readSourcePage('{"nextPageToken":"","blocks":[]}', "blocks").next).toBeUndefined()
  })

  it("given a descending listing (primary_blocks), when spread, then the copies descend too; block hashes (cb58 and 0x) are rewritten and parent hashes kept", () => {
    const page = JSON.stringify({ blocks: [{ blockNumber: "8", blockHash: `0x${"ab".repeat(32)}`, parentHash: "0x01" }, { blockNumber: "7", blockHash: "jxnbZ1eWpnZxr1vyNR17cyj5ntSmJRXQAmT9Vm8qXRp47hePy", parentHash: "4b5c" }] })
    const spread = spreadRecords(undefined, readSourcePage(page, "blocks"), undefined, 2, primary.repeat!).map((r) => JSON.parse(r) as { blockNumber: string; blockHash: string; parentHash: string })
    expect(spread).toEqual([
      { blockNumber: "17", blockHash: copyId(`0x${"ab".repeat(32)}`, 1), parentHash: "0x01" },
      { blockNumber: "16", blockHash: `0x${"ab".repeat(32)}`, parentHash: "0x01" },
      { blockNumber: "15", blockHash: copyId("jxnbZ1eWpnZxr1vyNR17cyj5ntSmJRXQAmT9Vm8qXRp47hePy", 1), parentHash: "4b5c" },
      { blockNumber: "14", blockHash: "jxnbZ1eWpnZxr1vyNR17cyj5ntSmJRXQAmT9Vm8qXRp47hePy", parentHash: "4b5c" }
    ])
  })

  it("given a two-page listing of 5 records spread 3 times, when walked through the upstream by pages of 4, then it is pages of 4, 4, 4 and 3, 15 distinct hashes in ascending height, and a lookup is the source's as recorded", async () => {
    const upstream = repeatedPages(dir, 3, new Map(staking.listings.map((l) => [l.path, l.items])), staking.repeat!, 100)
    try {
      const base = await upstream.url()
      const sizes: number[] = []
      const records: Array<{ txHash: string; blockNumber: string }> = []
      let token: string | undefined
      do {
        const res = await fetch(`${base}${LISTING}?sortOrder=asc&pageSize=4${token === undefined ? "" : `&pageToken=${encodeURIComponent(token)}`}`)
        expect(res.status).toBe(200)
        const page = (await res.json()) as { nextPageToken?: string; transactions: Array<{ txHash: string; blockNumber: string }>; chainInfo: unknown }
        expect(page.chainInfo).toEqual({ chainName: "p-chain" })
        sizes.push(page.transactions.length)
        records.push(...page.transactions)
        token = page.nextPageToken
      } while (token !== undefined && sizes.length < 20)
      expect(sizes).toEqual([4, 4, 4, 3])
      expect(new Set(records.map((r) => r.txHash)).size).toBe(15)
      expect(records.map((r) => Number(r.blockNumber))).toEqual([303, 304, 305, 306, 306, 306, 307, 307, 307, 308, 308, 308, 309, 310, 311])
      expect(await (await fetch(`${base}${LOOKUP}`)).text()).toBe(LOOKUP_BODY)
      expect((await fetch(`${base}${LISTING}?sortOrder=asc&pageSize=4&pageToken=rp9.`)).status).toBe(400)
    } finally {
      await upstream.close()
    }
  })
})
