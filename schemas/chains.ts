/**
 * chains: what route 17 says about each EVM chain of the job, one snapshot a day.
 * Hive key: snapshot_date (the run's UTC day). Each other column is the record's field named in
 * `from`.
 */
import { address, bool, defineSchema, hash, list, str } from "./common.ts"
import { networkToken, networkTokenDescription } from "./_evm.ts"

export const schema = defineSchema(
  [
    str("chain_id", "EVM chain id", { nullable: false, from: "chainId" }),
    str("status", "Status of the chain's nodes: OK or UNAVAILABLE (unknown values kept as sent)", { from: "status" }),
    str("chain_name", "Chain name", { from: "chainName" }),
    str("description", "Description", { from: "description", optional: true }),
    hash("platform_chain_id", "Blockchain id on the P-chain (cb58)", { from: "platformChainId", optional: true }),
    hash("subnet_id", "Subnet (L1) id", { from: "subnetId", optional: true }),
    str("vm_id", "VM id", { from: "vmId", optional: true }),
    str("vm_name", "VM name, e.g. EVM (unknown values kept as sent)", { from: "vmName", optional: true }),
    str("explorer_url", "Block explorer URL", { from: "explorerUrl", optional: true }),
    str("rpc_url", "JSON-RPC URL", { from: "rpcUrl", optional: true }),
    str("ws_url", "WebSocket URL", { from: "wsUrl", optional: true }),
    bool("is_testnet", "Whether the chain is a test network", { from: "isTestnet" }),
    address("multicall_address", "Multicall contract address (utilityAddresses.multicall)", { from: "utilityAddresses.multicall", optional: true }),
    ...networkToken("networkToken"),
    networkTokenDescription("networkToken"),
    str("chain_logo_uri", "Chain logo URI", { from: "chainLogoUri", optional: true }),
    bool("private", "Whether the chain is private", { from: "private", optional: true }),
    list("enabled_features", str("item", "Feature"), "Features the service enables for the chain, e.g. nftIndexing", { from: "enabledFeatures", optional: true })
  ],
  "EVM chains of the job from the chain-data service, route 17, one snapshot a day"
)
