/**
 * The primary-network routes of the chain-data service (seed routes 1–4, 7, 8, 12, 13), each in
 * its own module under primary/.
 */
import type { RouteDef } from "../http/contract.ts"
import { blockRoutes } from "./primary/blocks.ts"
import { delegatorRoutes } from "./primary/delegators.ts"
import { l1ValidatorRoutes } from "./primary/l1Validators.ts"
import { signatureRoutes } from "./primary/signatures.ts"
import { stakingRoutes } from "./primary/staking.ts"
import { utxoRoutes } from "./primary/utxos.ts"
import { validatorRoutes } from "./primary/validators.ts"

export const routes: ReadonlyArray<RouteDef> = [
  ...signatureRoutes,
  ...utxoRoutes,
  ...stakingRoutes,
  ...validatorRoutes,
  ...delegatorRoutes,
  ...blockRoutes,
  ...l1ValidatorRoutes
]
