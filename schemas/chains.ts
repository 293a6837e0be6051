/**
 * chains: what route 17 says about each EVM chain of the job, one snapshot a day.
 * Hive key: snapshot_date (the run's UTC day).
 */
import { address, bool, defineSchema, hash, list, str } from "./common.ts"
import { networkToken, networkTokenDescription } from "./_evm.ts"

export const schema = defineSchema(
  [
    str("chain_id", "EVM chain id", { nullable: false }),
    str("status", "Status of the chain's nodes: OK or UNAVAILABLE (unknown values kept as sent)"),
    str("chain_name", "Chain name"),
    str("description", "Description"),
    hash("platform_chain_id", "Blockchain id on the P-chain (cb58)"),
    hash("subnet_id", "Subnet (L1) id"),
    str("vm_id", "VM id"),
    str("vm_name", "VM name, e.g. EVM (unknown values kept as sent)"),
    str("explorer_url", "Block explorer URL"),
    str("rpc_url", "JSON-RPC URL"),
    str("ws_url", "WebSocket URL"),
    bool("is_testnet", "Whether the chain is a test network"),
    address("multicall_address", "Multicall contract address (utilityAddresses.multicall)"),
    ...networkToken(),
    networkTokenDescription(),
    str("chain_logo_uri", "Chain logo URI"),
    bool("private", "Whether the chain is private"),
    list("enabled_features", str("item", "Feature"), "Features the service enables for the chain, e.g. nftIndexing")
  ],
  "EVM chains of the job from the chain-data service, route 17, one snapshot a day"
)
