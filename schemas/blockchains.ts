/**
 * blockchains: every blockchain the node knows except the P-chain (platform.getBlockchains),
 * with this node's status of it (platform.getBlockchainStatus, added to the record by the
 * listing: null when the node had none). Hive keys: network, snapshot_date. Each blockchain is
 * avalanchego's APIBlockchain {id, name, subnetID, vmID}, every field always written
 * (vms/platformvm/service.go).
 */
import { col, defineTable } from "./columns.ts"

export const table = defineTable(
  "Blockchains (all but the P-chain) from the node's platform.getBlockchains with this node's platform.getBlockchainStatus, one snapshot per run day",
  {
    network: col.str("Network of the node: mainnet or fuji").fromSlice(),
    snapshot_date: col.date("UTC day of the run that asked").fromSlice(),
    blockchain_id: col.hash("Blockchain id (cb58)").from("id"),
    name: col.str("Human-readable name").from("name"),
    subnet_id: col.hash("Subnet that validates it").from("subnetID"),
    vm_id: col.hash("Virtual machine it runs (cb58)").from("vmID"),
    status: col
      .str("This node's status of it: Validating, Created, Preferred, Syncing or Unknown (unknown values kept as sent; null when the node had none)")
      .from("status", { orNull: true })
  }
)
