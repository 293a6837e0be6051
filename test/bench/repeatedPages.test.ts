import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { keyOf, RecordStore } from "../../bench/e2e/cache.ts"
import { benchDatasets, copyId } from "../../bench/e2e/datasets.ts"
import { copyPage, repeatedPages, sourceOf } from "../../bench/e2e/repeatedPages.ts"

const staking = benchDatasets.find((d) => d.name === "staking_transactions")!
const LISTING = "/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking"
const tx = (hash: string, t: number) => ({
  txHash: hash,
  txType: "AddPermissionlessValidatorTx",
  blockTimestamp: t,
  blockNumber: String(100 + t),
  consumedUtxos: [{ consumingTxHash: hash, consumingBlockNumber: "99", amount: "18446744073709551617" }]
})
const PAGE_1 = JSON.stringify({ nextPageToken: "tok2", transactions: [tx("2NqNJXG1qKXrfqofNc352LfVJCKrMD5mFj7C7C9MUCzfWJy79H", 1), tx("12R12A4jR7hGMhK8qSgAvv1ftQtss5Tes1CVwPyYChJKGJh1p", 2)] })
const PAGE_2 = JSON.stringify({ transactions: [tx("2Xyz4jR7hGMhK8qSgAvv1ftQtss5Tes1CVwPyYChJKGJh1pQB", 3)] })
const LOOKUP = "/v1/networks/mainnet/blockchains/p-chain/blocks?pageSize=1"
const LOOKUP_BODY = JSON.stringify({ nextPageToken: "b2", blocks: [{ blockNumber: "7" }] })

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "repeated-pages-"))
  const store = RecordStore.open(dir)
  const put = (url: string, body: string) => store.put(keyOf({ method: "GET", url, body: Buffer.alloc(0) }), 200, "application/json", Buffer.from(body))
  put(`${LISTING}?pageSize=100&sortOrder=asc`, PAGE_1)
  put(`${LISTING}?pageSize=100&sortOrder=asc&pageToken=tok2`, PAGE_2)
  put(LOOKUP, LOOKUP_BODY)
  store.close()
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe("a case served from a smaller case's recording, its listings repeated (bench --pages-of)", () => {
  it("given a synthetic token, when its source is asked, then it names the copy and the source request; a token of another kind is refused", () => {
    expect(sourceOf(`${LISTING}?sortOrder=asc&pageToken=rp2.tok2`)).toEqual({ copy: 2, url: `${LISTING}?pageToken=tok2&sortOrder=asc` })
    expect(sourceOf(`${LISTING}?sortOrder=asc&pageToken=rp1.`)).toEqual({ copy: 1, url: `${LISTING}?sortOrder=asc` })
    expect(sourceOf(`${LISTING}?sortOrder=asc`)).toEqual({ copy: 0, url: `${LISTING}?sortOrder=asc` })
    expect(sourceOf(`${LISTING}?pageToken=tok2`)).toBeUndefined()
  })

  it("given a page, when copied, then copy 0 is the source byte for byte but its token, and copy 1's hashes and heights are its own", () => {
    expect(copyPage(PAGE_1, 0, 3, staking.copyKeys!)).toBe(PAGE_1.replace('"tok2"', '"rp0.tok2"'))
    const copy1 = JSON.parse(copyPage(PAGE_1, 1, 3, staking.copyKeys!)) as { nextPageToken: string; transactions: ReturnType<typeof tx>[] }
    expect(copy1.nextPageToken).toBe("rp1.tok2")
    expect(copy1.transactions.map((t) => t.txHash)).toEqual([copyId("2NqNJXG1qKXrfqofNc352LfVJCKrMD5mFj7C7C9MUCzfWJy79H", 1), copyId("12R12A4jR7hGMhK8qSgAvv1ftQtss5Tes1CVwPyYChJKGJh1p", 1)])
    // heights move a copy's distance up, amounts stay exact text, other ids of the record as they were
    expect(copy1.transactions.map((t) => t.blockNumber)).toEqual(["1000000000101", "1000000000102"])
    expect(copy1.transactions[0]!.consumedUtxos[0]).toEqual({ consumingTxHash: "2NqNJXG1qKXrfqofNc352LfVJCKrMD5mFj7C7C9MUCzfWJy79H", consumingBlockNumber: "1000000000099", amount: "18446744073709551617" })
    // the source's last page leads to the next copy, the last copy's ends the listing
    expect(JSON.parse(copyPage(PAGE_2, 1, 3, staking.copyKeys!)).nextPageToken).toBe("rp2.")
    expect(copyPage(PAGE_2, 2, 3, staking.copyKeys!)).not.toContain("nextPageToken")
  })

  it("given a primary_blocks page, when copied, then block hashes (cb58 and 0x) are rewritten, heights moved and parent hashes kept", () => {
    const primary = benchDatasets.find((d) => d.name === "primary_blocks")!
    const page = JSON.stringify({ blocks: [{ blockNumber: "7", blockHash: "jxnbZ1eWpnZxr1vyNR17cyj5ntSmJRXQAmT9Vm8qXRp47hePy", parentHash: "4b5c" }, { blockNumber: "8", blockHash: `0x${"ab".repeat(32)}`, parentHash: "0x01" }] })
    const copied = JSON.parse(copyPage(page, 2, 3, primary.copyKeys!)) as { blocks: Array<{ blockNumber: string; blockHash: string; parentHash: string }> }
    expect(copied.blocks).toEqual([
      { blockNumber: "2000000000007", blockHash: copyId("jxnbZ1eWpnZxr1vyNR17cyj5ntSmJRXQAmT9Vm8qXRp47hePy", 2), parentHash: "4b5c" },
      { blockNumber: "2000000000008", blockHash: copyId(`0x${"ab".repeat(32)}`, 2), parentHash: "0x01" }
    ])
  })

  it("given a two-page listing repeated 3 times, when walked through the upstream, then it is 6 pages, 9 records, every hash distinct, and a lookup is the source's as recorded", async () => {
    const upstream = repeatedPages(dir, 3, new Set(staking.listings.map((l) => l.path)), staking.copyKeys!)
    try {
      const base = await upstream.url()
      const hashes: string[] = []
      let pages = 0
      let token: string | undefined
      do {
        const res = await fetch(`${base}${LISTING}?sortOrder=asc&pageSize=100${token === undefined ? "" : `&pageToken=${encodeURIComponent(token)}`}`)
        expect(res.status).toBe(200)
        const page = (await res.json()) as { nextPageToken?: string; transactions: Array<{ txHash: string }> }
        hashes.push(...page.transactions.map((t) => t.txHash))
        token = page.nextPageToken
        pages++
      } while (token !== undefined && pages < 20)
      expect(pages).toBe(6)
      expect(hashes).toHaveLength(9)
      expect(new Set(hashes).size).toBe(9)
      expect(await (await fetch(`${base}${LOOKUP}`)).text()).toBe(LOOKUP_BODY)
      expect((await fetch(`${base}${LISTING}?sortOrder=asc&pageSize=100&pageToken=rp9.`)).status).toBe(400)
    } finally {
      await upstream.close()
    }
  })
})
