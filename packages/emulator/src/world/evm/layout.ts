/**
 * What the n-th transaction of a chain is (its role), and how many of each kind of thing happened
 * up to any transaction, in O(1): the counts that cumulative metrics and ownership need.
 *
 * Global transaction numbers n = 0, 1, 2, … are laid out as:
 *   [0, S)        deployment of system contract n by the faucet (bootstrap)
 *   [S, S+G)      funding of genesis account n − S by the faucet
 *   x = n − S − G ≥ 0, then nested strata, each with its own FlagCounter:
 *     creation?   (rate 1/40)  → creation m; factory CREATE2 (1/3) or top-level CREATE
 *     else birth? (1/10)       → a new account is funded
 *     else ERC-20 event? (3/10), else ERC-721 event? (1/6), else ERC-1155 event? (1/8)
 *     else a plain transaction (native transfer or contract call)
 * Each stratum's index is the previous index minus the flags counted so far, so every step is a
 * closed form and every inverse is a short search.
 */
import { FlagCounter } from "./counter.ts"
import { h32, saltOf } from "./hash.ts"

export type Standard = "ERC-20" | "ERC-721" | "ERC-1155"

export type TxRole =
  | { readonly kind: "deploySystem"; readonly system: number }
  | { readonly kind: "fundGenesis"; readonly account: number }
  | {
      readonly kind: "create"
      readonly creation: number
      readonly viaFactory: boolean
      /** Deployer account number (a class of its own); for factory creations, undefined. */
      readonly deployer?: number
    }
  | { readonly kind: "birth"; readonly account: number }
  | { readonly kind: "event"; readonly standard: Standard; readonly event: number }
  | { readonly kind: "plain"; readonly plain: number }

const STANDARDS: ReadonlyArray<Standard> = ["ERC-20", "ERC-721", "ERC-1155"]

export class Layout {
  private readonly creation: FlagCounter
  private readonly factory: FlagCounter
  private readonly newDeployer: FlagCounter
  private readonly birth: FlagCounter
  private readonly events: ReadonlyArray<FlagCounter>
  private readonly pickSalt: number

  constructor(
    seed: number,
    chain: number,
    /** System contracts (S). */
    readonly systems: number,
    /** Genesis accounts (G). */
    readonly genesisAccounts: number
  ) {
    const salt = (label: string): number => saltOf(seed, "layout", chain, label)
    this.pickSalt = salt("pick")
    this.creation = new FlagCounter(salt("creation"), 1, 40)
    this.factory = new FlagCounter(salt("factory"), 1, 3)
    this.newDeployer = new FlagCounter(salt("deployer"), 2, 5)
    this.birth = new FlagCounter(salt("birth"), 1, 10)
    this.events = [new FlagCounter(salt("erc20"), 3, 10), new FlagCounter(salt("erc721"), 1, 6), new FlagCounter(salt("erc1155"), 1, 8)]
  }

  private get head(): number {
    return this.systems + this.genesisAccounts
  }

  role(n: number): TxRole {
    if (n < this.systems) return { kind: "deploySystem", system: n }
    if (n < this.head) return { kind: "fundGenesis", account: n - this.systems }
    const x = n - this.head
    if (this.creation.isFlag(x)) {
      const m = this.creation.count(x) - 1
      if (this.factory.isFlag(m)) return { kind: "create", creation: m, viaFactory: true }
      return { kind: "create", creation: m, viaFactory: false, deployer: this.deployerOf(m - this.factory.count(m)) }
    }
    const y = x - this.creation.count(x)
    if (this.birth.isFlag(y)) return { kind: "birth", account: this.genesisAccounts + this.birth.count(y) - 1 }
    let z = y - this.birth.count(y)
    for (let s = 0; s < this.events.length; s++) {
      const c = this.events[s] as FlagCounter
      if (c.isFlag(z)) return { kind: "event", standard: STANDARDS[s] as Standard, event: c.count(z) - 1 }
      z -= c.count(z)
    }
    return { kind: "plain", plain: z }
  }

  /** Deployer of the k-th top-level creation: new ones are numbered in order of first use. */
  private deployerOf(k: number): number {
    const known = 1 + this.newDeployer.count(k)
    if (k === 0 || this.newDeployer.isFlag(k)) return known - 1
    // an existing deployer deploys again: one of those known so far, by a hash of k
    return h32(this.pickSalt, k) % known
  }

  // ---- counts over transactions 0..n (n may be −1) -------------------------------------------

  /** Accounts (regular EOAs) funded so far, genesis accounts included. */
  accountsThrough(n: number): number {
    if (n < this.systems) return 0
    if (n < this.head) return n - this.systems + 1
    const x = n - this.head
    return this.genesisAccounts + this.birth.count(x - this.creation.count(x))
  }

  /** Creation events after bootstrap (m) up to n. */
  private creationsAfterBootstrap(n: number): number {
    return n < this.head ? 0 : this.creation.count(n - this.head)
  }

  /** CREATE/CREATE2 frames up to n (rule 5): system deployments plus creation events. */
  contractsThrough(n: number): number {
    if (n < 0) return 0
    return Math.min(n + 1, this.systems) + this.creationsAfterBootstrap(n)
  }

  /** Top-level CREATE transactions after bootstrap up to n; each brings a new contract to `to`. */
  topLevelCreationsThrough(n: number): number {
    const m = this.creationsAfterBootstrap(n)
    return m === 0 ? 0 : m - this.factory.count(m - 1)
  }

  /** Deployer accounts seen up to n (their own address class). */
  deployerAccountsThrough(n: number): number {
    const k = this.topLevelCreationsThrough(n)
    return k === 0 ? 0 : 1 + this.newDeployer.count(k - 1)
  }

  /** Distinct `from` of creation frames up to n (rule 5): faucet, deployer accounts, the factory. */
  deployersThrough(n: number): number {
    if (n < 0) return 0
    const m = this.creationsAfterBootstrap(n)
    const factoryUsed = m > 0 && this.factory.count(m - 1) > 0 ? 1 : 0
    return 1 + this.deployerAccountsThrough(n) + factoryUsed
  }

  /**
   * Distinct addresses in from/to of transactions and ERC transfer events up to n (rule 3/4):
   * the faucet, the zero address (the first deployment mints), system contracts, accounts,
   * deployer accounts and top-level created contracts. Nothing else ever appears there.
   */
  addressesThrough(n: number): number {
    if (n < 0) return 0
    if (n < this.systems) return 2 + n + 1
    return 2 + this.systems + this.accountsThrough(n) + this.deployerAccountsThrough(n) + this.topLevelCreationsThrough(n)
  }

  /** ERC events of one standard in transactions 0..n. */
  eventsThrough(standard: Standard, n: number): number {
    if (n < this.head) return 0
    const x = n - this.head
    const y = x - this.creation.count(x)
    let z = y - this.birth.count(y)
    for (let s = 0; s < this.events.length; s++) {
      const c = this.events[s] as FlagCounter
      if (STANDARDS[s] === standard) return c.count(z)
      z -= c.count(z)
    }
    return 0
  }

  // ---- inverses: which transaction holds a given event ----------------------------------------

  /** Global number of the transaction of the q-th event of a standard. */
  eventTx(standard: Standard, q: number): number {
    const s = STANDARDS.indexOf(standard)
    let z = (this.events[s] as FlagCounter).nth(q)
    for (let k = s - 1; k >= 0; k--) z = (this.events[k] as FlagCounter).nthNon(z)
    const y = this.birth.nthNon(z)
    return this.head + this.creation.nthNon(y)
  }

  /** Global number of the transaction of creation m. */
  creationTx(m: number): number {
    return this.head + this.creation.nth(m)
  }

  /** Global number of the transaction that funded account a. */
  accountTx(a: number): number {
    if (a < this.genesisAccounts) return this.systems + a
    return this.head + this.creation.nthNon(this.birth.nth(a - this.genesisAccounts))
  }

  /** Global number of the first top-level creation by deployer account d. */
  deployerFirstTx(d: number): number {
    const k = d === 0 ? 0 : this.newDeployer.nth(d - 1)
    // k-th top-level creation → creation index m: the k-th non-flag of the factory counter
    return this.creationTx(this.factory.nthNon(k))
  }
}
