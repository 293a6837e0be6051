/**
 * Addresses inside the world are small numbers (kind, index) packed into one safe integer, so
 * distinct-address sets are sets of numbers; the hex form is made only when a record is rendered.
 */
export const AddressKind = {
  zero: 0,
  /** The genesis-funded account that deploys the system contracts and funds new accounts. */
  faucet: 1,
  /** Token contracts, factory, messenger, multicall, dapp: spec.ts systems, by index. */
  system: 2,
  /** Regular accounts, numbered in order of funding. */
  account: 3,
  /** Accounts that only deploy contracts (top-level CREATE), numbered in order of first use. */
  deployer: 4,
  /** Contracts from creation events, by creation number m. */
  created: 5
} as const

export type AddressKindCode = (typeof AddressKind)[keyof typeof AddressKind]

const SPAN = 2 ** 40

/** Packed address reference: kind · 2^40 + index. */
export type Ref = number

export const ref = (kind: AddressKindCode, index = 0): Ref => kind * SPAN + index
export const kindOf = (r: Ref): AddressKindCode => Math.floor(r / SPAN) as AddressKindCode
export const indexOf = (r: Ref): number => r % SPAN

export const ZERO_REF: Ref = ref(AddressKind.zero)
export const FAUCET_REF: Ref = ref(AddressKind.faucet)
