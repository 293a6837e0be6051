/**
 * blockchains: every blockchain the node knows except the P-chain (platform.getBlockchains),
 * with this node's status of it (platform.getBlockchainStatus). Hive keys: network, snapshot_date.
 */
import { defineSchema, hash, str } from "./common.ts"

export const schema = defineSchema(
  [
    hash("blockchain_id", "Blockchain id (cb58)", { nullable: false }),
    str("name", "Human-readable name"),
    hash("subnet_id", "Subnet that validates it"),
    hash("vm_id", "Virtual machine it runs (cb58)"),
    str("status", "This node's status of it: Validating, Created, Preferred, Syncing or Unknown (unknown values kept as sent; null when the node had none)")
  ],
  "Blockchains (all but the P-chain) from the node's platform.getBlockchains with this node's platform.getBlockchainStatus, one snapshot per run day"
)
