/**
 * current_supply: platform.getCurrentSupply of the primary network and each job subnet. Hive keys:
 * network, snapshot_date. The answer is avalanchego's GetCurrentSupplyReply {supply, height}
 * (vms/platformvm/service.go), node uint64s; the seed lists only supply, so a node may leave the
 * height out.
 */
import { col, defineTable } from "./columns.ts"
import { NodeUint } from "./wire.ts"

export const table = defineTable(
  "Current supply of the primary network's and the job subnets' staking tokens from the node's platform.getCurrentSupply, one snapshot per run day",
  {
    network: col.str("Network of the node: mainnet or fuji").fromSlice(),
    snapshot_date: col.date("UTC day of the run that asked").fromSlice(),
    subnet_id: col.hash("Subnet whose staking token this is (the primary network is 11111111111111111111111111111111LpoYY)").fromSlice(),
    supply: col.amount("Upper bound of the tokens that can stake the subnet, in base units; ignores burnt tokens (fees)").from("supply", { wire: NodeUint }),
    height: col.int64("P-chain height the supply was read at, when the node sends it").from("height?", { wire: NodeUint })
  }
)
