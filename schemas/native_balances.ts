/**
 * native_balances: the native-token balance of each address of `job.nativeBalances` (route 9),
 * one snapshot a day at the latest block, priced in `job.currency`. Hive keys: chain_id,
 * snapshot_date (the run's UTC day).
 */
import { address, defineSchema, str, uint256 } from "./common.ts"
import { networkToken, price } from "./_evm.ts"

export const schema = defineSchema(
  [
    address("address", "Wallet address as the job spells it", { nullable: false }),
    str("currency", "Currency the job asked prices in", { nullable: false }),
    ...networkToken(),
    uint256("balance", "Native balance in the token's smallest unit (wei)"),
    ...price("price", "Native token price"),
    ...price("balance_value", "Value of the balance")
  ],
  "Native token balances of the job's addresses from the chain-data service, route 9, one snapshot a day"
)
