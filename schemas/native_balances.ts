/**
 * native_balances: the native-token balance of each address of `job.nativeBalances` (route 9),
 * one snapshot a day at the latest block, priced in `job.currency`. Hive keys: chain_id,
 * snapshot_date (the run's UTC day). The record is route 9's nativeTokenBalance.
 */
import { networkToken, price } from "./_evm.ts"
import { col, defineTable } from "./columns.ts"

export const table = defineTable("Native token balances of the job's addresses from the chain-data service, route 9, one snapshot a day", {
  chain_id: col.str("EVM chain id of the balance").fromSlice(),
  snapshot_date: col.date("UTC day of the run that asked").fromSlice(),
  address: col.address("Wallet address as the job spells it").fromSlice(),
  currency: col.str("Currency the job asked prices in").fromSlice(),
  ...networkToken("nativeTokenBalance"),
  balance: col.uint256("Native balance in the token's smallest unit (wei)").from("nativeTokenBalance.balance"),
  ...price("price", "Native token price", "nativeTokenBalance.price?"),
  ...price("balance_value", "Value of the balance", "nativeTokenBalance.balanceValue?")
})
