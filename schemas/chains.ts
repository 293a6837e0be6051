/**
 * chains: what route 17 says about each EVM chain of the job, one snapshot a day. Hive key:
 * snapshot_date (the run's UTC day).
 */
import { networkToken, networkTokenDescription } from "./_evm.ts"
import { col, defineTable } from "./columns.ts"

export const table = defineTable("EVM chains of the job from the chain-data service, route 17, one snapshot a day", {
  snapshot_date: col.date("UTC day of the run that asked").fromSlice(),
  chain_id: col.str("EVM chain id").from("chainId"),
  status: col.str("Status of the chain's nodes: OK or UNAVAILABLE (unknown values kept as sent)").from("status"),
  chain_name: col.str("Chain name").from("chainName"),
  description: col.str("Description").from("description?"),
  platform_chain_id: col.hash("Blockchain id on the P-chain (cb58)").from("platformChainId?"),
  subnet_id: col.hash("Subnet (L1) id").from("subnetId?"),
  vm_id: col.str("VM id").from("vmId?"),
  vm_name: col.str("VM name, e.g. EVM (unknown values kept as sent)").from("vmName?"),
  explorer_url: col.str("Block explorer URL").from("explorerUrl?"),
  rpc_url: col.str("JSON-RPC URL").from("rpcUrl?"),
  ws_url: col.str("WebSocket URL").from("wsUrl?"),
  is_testnet: col.bool("Whether the chain is a test network").from("isTestnet"),
  multicall_address: col.address("Multicall contract address (utilityAddresses.multicall)").from("utilityAddresses?.multicall?"),
  ...networkToken("networkToken"),
  network_token_description: networkTokenDescription("networkToken"),
  chain_logo_uri: col.str("Chain logo URI").from("chainLogoUri?"),
  private: col.bool("Whether the chain is private").from("private?"),
  // a chain that lists no features has none: an empty list, not an unknown
  enabled_features: col.list(col.str("Feature"), "Features the service enables for the chain, e.g. nftIndexing").from("enabledFeatures?", { orElse: [] })
})
