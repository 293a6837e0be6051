import { promises as fs } from "node:fs"
import { describe, expect } from "vitest"
import { datasets as evmGroup } from "../../../pipelines/groups/evm.ts"
import { crawl } from "../../support/spine.ts"
import { unlimited } from "../../support/emulatorFixtures.ts"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { evmJob } from "../../support/emulatorJob/groups.ts"
import { columnTypes, rows } from "../../support/catalogReads.ts"
import { getJson, served } from "../../support/emulatorAnswers.ts"

type Json = Record<string, any>

const TABLES = [...evmGroup.flatMap((d) => [d.name, ...(d.children ?? []).map((c) => c.name)])]

/** What the file's tests read: its own emulator (they move its clock and count what it served) and its first crawl. */
const it = crawledOnce("evm-group", unlimited(24), async ({ emu, out }) => {
  const job = evmJob(emu)
  const report = await crawl(out, emu, job, evmGroup.map((d) => d.name))
  return { emu, job, out, report }
})

// the first test that asks for the crawl also waits for it: twice the default time
describe("the EVM group against the emulator, with the EVM job part", { timeout: 120_000 }, () => {
  it("given the job part, when the whole group ran, then every EVM table has rows and nothing was rejected", async ({ crawled: { out } }) => {
    expect(TABLES).toHaveLength(11)
    for (const table of TABLES) {
      const [r] = await rows(out, `SELECT count(*)::INTEGER AS n FROM ${table}`)
      expect(r!["n"], table).toBeGreaterThan(0)
    }
    expect(await rows(out, "SELECT dataset, reason FROM _rejects")).toEqual([])
  })

  it("given the job's chains, when chains is read, then each is today's snapshot equal to the emulator's route-17 answer", async ({ crawled: { emu, job, out, report } }) => {
    // snapshots are dated by the run's as-of day: the emulator's clock here
    const day = new Date(report.asOf! * 1000).toISOString().slice(0, 10)
    for (const chain of job.evmChains) {
      const c: Json = await getJson(emu, `/v1/chains/${chain}`)
      const [r] = await rows(
        out,
        `SELECT strftime(snapshot_date, '%Y-%m-%d') AS day, status, chain_name, description, platform_chain_id, subnet_id, vm_id, vm_name, explorer_url, rpc_url, ws_url,
           is_testnet, multicall_address, network_token_name, network_token_symbol, network_token_decimals, network_token_logo_uri, network_token_description,
           chain_logo_uri, private, enabled_features
         FROM chains WHERE chain_id = '${chain}'`
      )
      expect(r).toEqual({
        day,
        status: c.status,
        chain_name: c.chainName,
        description: c.description,
        platform_chain_id: c.platformChainId,
        subnet_id: c.subnetId,
        vm_id: c.vmId,
        vm_name: c.vmName,
        explorer_url: c.explorerUrl,
        rpc_url: c.rpcUrl,
        ws_url: c.wsUrl,
        is_testnet: c.isTestnet,
        multicall_address: c.utilityAddresses.multicall,
        network_token_name: c.networkToken.name,
        network_token_symbol: c.networkToken.symbol,
        network_token_decimals: c.networkToken.decimals,
        network_token_logo_uri: c.networkToken.logoUri,
        network_token_description: c.networkToken.description,
        chain_logo_uri: c.chainLogoUri,
        private: c.private,
        enabled_features: c.enabledFeatures
      })
    }
    expect(await columnTypes(out, "chains")).toMatchObject({ chain_id: "VARCHAR", is_testnet: "BOOLEAN", enabled_features: "VARCHAR[]", snapshot_date: "DATE" })
  })

  it("given the job's addresses, when native_balances is read, then each balance and price equals the emulator's route-9 answer in the job's currency, exact", async ({ crawled: { emu, job, out } }) => {
    for (const { chainId, address } of job.nativeBalances) {
      const b: Json = (await getJson(emu, `/v1/chains/${chainId}/addresses/${address}/balances:getNative?currency=${job.currency}`)).nativeTokenBalance
      const [r] = await rows(
        out,
        `SELECT currency, network_token_symbol, network_token_decimals, balance, balance_double, price, price_currency, balance_value, balance_value_currency
         FROM native_balances WHERE chain_id = '${chainId}' AND address = '${address}'`
      )
      expect(r).toEqual({
        currency: job.currency,
        network_token_symbol: b.symbol,
        network_token_decimals: b.decimals,
        balance: b.balance,
        balance_double: Number(b.balance),
        price: b.price.value,
        price_currency: b.price.currencyCode,
        balance_value: b.balanceValue.value,
        balance_value_currency: b.balanceValue.currencyCode
      })
      expect(BigInt(b.balance)).toBeGreaterThan(0n)
    }
    expect(await columnTypes(out, "native_balances")).toMatchObject({ balance: "VARCHAR", balance_double: "DOUBLE", chain_id: "VARCHAR", snapshot_date: "DATE" })
  })

  it("given the job's token contracts, when contract_metadata is read, then each equals the emulator's route-16 answer, links and tags as lists", async ({ crawled: { emu, job, out } }) => {
    for (const { chainId, address } of job.tokenContracts) {
      const c: Json = await getJson(emu, `/v1/chains/${chainId}/addresses/${address}`)
      const [r] = await rows(
        out,
        `SELECT address, erc_type, name, symbol, decimals, description, official_site, email, logo_asset_id, logo_image_uri, banner_asset_id, banner_image_uri,
           color, resource_links, tags, deployment_tx_hash, deployer_address, deployer_contract_address
         FROM contract_metadata WHERE chain_id = '${chainId}' AND address = '${address}'`
      )
      expect(r).toEqual({
        address: c.address,
        erc_type: c.ercType,
        name: c.name,
        symbol: c.symbol,
        decimals: c.decimals ?? null,
        description: c.description,
        official_site: c.officialSite,
        email: c.email,
        logo_asset_id: c.logoAsset.assetId,
        logo_image_uri: c.logoAsset.imageUri,
        banner_asset_id: c.bannerAsset.assetId,
        banner_image_uri: c.bannerAsset.imageUri,
        color: c.color,
        resource_links: c.resourceLinks,
        tags: c.tags,
        deployment_tx_hash: c.deploymentDetails.txHash,
        deployer_address: c.deploymentDetails.deployerAddress,
        deployer_contract_address: c.deploymentDetails.deployerContractAddress ?? null
      })
    }
    expect((await columnTypes(out, "contract_metadata"))["resource_links"]).toBe('STRUCT("type" VARCHAR, url VARCHAR)[]')
  })

  it("given the NFT transfers of the transactions, when nft_tokens is read, then it holds each (collection, token id) once, equal to the emulator's route-15 answer", async ({ crawled: { emu, job, out } }) => {
    const chain = job.tokenContracts[0]!.chainId
    const seen = await rows(
      out,
      `SELECT DISTINCT token_address, token_id FROM (SELECT token_address, token_id FROM evm_erc721_transfers UNION ALL SELECT token_address, token_id FROM evm_erc1155_transfers)`
    )
    const expected = (
      await Promise.all(
        seen.map(async (s) => {
          const t: Json = await getJson(emu, `/v1/chains/${chain}/nfts/collections/${s["token_address"]}/tokens/${s["token_id"]}`)
          return {
            erc_type: t.ercType,
            token_address: t.address,
            token_id: t.tokenId,
            token_name: t.name ?? null,
            token_symbol: t.symbol ?? null,
            token_uri: t.tokenUri,
            token_owner_address: t.ownerAddress ?? null,
            metadata: `${t.metadata.indexStatus}|${t.metadata.metadataLastUpdatedTimestamp}|${t.metadata.name}|${t.metadata.imageUri}|${t.metadata.attributes ?? t.metadata.properties}`
          }
        })
      )
    ).sort((a, b) => (a.token_address + a.token_id.padStart(78, "0") < b.token_address + b.token_id.padStart(78, "0") ? -1 : 1))
    expect(expected.length).toBeGreaterThan(20)
    const actual = await rows(
      out,
      `SELECT erc_type, token_address, token_id, token_name, token_symbol, token_uri, token_owner_address,
         concat_ws('|', token_metadata.index_status, epoch(token_metadata.last_updated_at)::BIGINT::VARCHAR, token_metadata.name, token_metadata.image_uri,
           coalesce(token_metadata.attributes, token_metadata.properties)) AS metadata
       FROM nft_tokens WHERE chain_id = '${chain}' ORDER BY token_address || lpad(token_id, 78, '0')`
    )
    expect(actual).toEqual(expected)
  })

  it("given a finished run, when the snapshot, lookup and fan-out datasets run again the same day, then they ask the service nothing and add no row", async ({ crawled: { emu, job, out } }) => {
    const again = ["chains", "native_balances", "contract_metadata", "evm_transactions", "nft_tokens"]
    const counts = async () => Promise.all(TABLES.map(async (t) => (await rows(out, `SELECT count(*)::INTEGER AS n FROM ${t}`))[0]!["n"]))
    const before = await counts()
    const requests = served(emu)
    await crawl(out, emu, job, again)
    expect(served(emu) - requests).toBe(0)
    expect(await counts()).toEqual(before)
  })

  it("given the catalog, when DuckDB lists the columns of the EVM views, then every column has a comment", async ({ crawled: { out } }) => {
    const bare = await rows(
      out,
      `SELECT table_name, column_name FROM duckdb_columns() WHERE table_name IN (${TABLES.map((t) => `'${t}'`).join(", ")}) AND coalesce(comment, '') = ''`
    )
    expect(bare).toEqual([])
    const [n] = await rows(out, `SELECT count(DISTINCT table_name)::INTEGER AS n FROM duckdb_columns() WHERE table_name IN (${TABLES.map((t) => `'${t}'`).join(", ")})`)
    expect(n!["n"]).toBe(TABLES.length)
  })

  it("given the transfers of one more collection, when nft_tokens runs again, then it looks up only the NFTs not fetched before", async ({ crawled: { emu, job, out } }) => {
    const chain = job.tokenContracts[0]!.chainId
    const known = new Set(job.tokenContracts.map((c) => c.address))
    const another = emu.world.evm.chain(chain)!.tokens().find((t) => t.ercType === "ERC-721" && !known.has(t.address))!
    await crawl(out, emu, { ...job, tokenContracts: [...job.tokenContracts, { chainId: chain, address: another.address }] }, ["token_transfers", "evm_transactions"])
    const [pending] = await rows(
      out,
      `SELECT count(*)::INTEGER AS n FROM (
         SELECT DISTINCT lower(token_address) AS a, token_id FROM (SELECT token_address, token_id FROM evm_erc721_transfers UNION ALL SELECT token_address, token_id FROM evm_erc1155_transfers)
         EXCEPT SELECT lower(token_address), token_id FROM nft_tokens)`
    )
    expect(pending!["n"]).toBeGreaterThan(0)
    const [before] = await rows(out, "SELECT count(*)::INTEGER AS n FROM nft_tokens")
    const requests = served(emu)
    await crawl(out, emu, job, ["nft_tokens"])
    expect(served(emu) - requests).toBe(pending!["n"])
    expect(await rows(out, "SELECT count(*)::INTEGER AS n, count(DISTINCT lower(token_address) || '/' || token_id)::INTEGER AS d FROM nft_tokens")).toEqual([
      { n: (before!["n"] as number) + (pending!["n"] as number), d: (before!["n"] as number) + (pending!["n"] as number) }
    ])
  })

  it("given an address that is no contract, when contract_metadata looks it up, then the 404 becomes a reject and the rest of the run goes on", async ({ crawled, folder }) => {
    // on a copy of the file's output: the other tests read its rejects as the first crawl left them
    const { emu, job } = crawled
    const out = await folder("evm-group-not-a-contract")
    await fs.cp(crawled.out, out, { recursive: true })
    const wallet = job.nativeBalances[0]!
    await crawl(out, emu, { ...job, tokenContracts: [...job.tokenContracts, wallet] }, ["contract_metadata"])
    const rejects = await rows(out, "SELECT raw, reason FROM _rejects WHERE dataset = 'contract_metadata'")
    expect(rejects.map((r) => JSON.parse(String(r["raw"])))).toEqual([{ key: wallet.address }])
    expect(String(rejects[0]!["reason"])).toMatch(/^not found: .* answered 404$/)
  })
})
