/**
 * The P-chain before the world's own history: from the real genesis (chain time = the genesis
 * config's startTime) through the Apricot era into Banff at the network's real activation time, as
 * a short scripted list of blocks in which every block and tx type of those eras appears:
 *
 * - Apricot: the genesis ApricotCommitBlock; ApricotProposalBlocks, each holding one proposal tx
 *   (AdvanceTimeTx, AddValidatorTx, AddDelegatorTx, AddSubnetValidatorTx, RewardValidatorTx) and
 *   followed by an ApricotCommitBlock or, where the network voted it down, an ApricotAbortBlock;
 *   ApricotAtomicBlocks with one ImportTx or ExportTx; ApricotStandardBlocks with CreateSubnetTx,
 *   CreateChainTx, and atomic txs once ApricotPhase5 let them in.
 * - Banff: BanffStandardBlocks holding staker txs (AddValidatorTx, AddPermissionless*,
 *   AddSubnetValidatorTx, RemoveSubnetValidatorTx), TransformSubnetTx and atomic txs, one empty
 *   (it only moves the chain's time, which Banff allows); BanffProposalBlocks with a
 *   RewardValidatorTx, each followed by a BanffCommitBlock or a BanffAbortBlock.
 *
 * Its parties are outside the world's wallets (Kind.ArchiveAddress, funded by ids of nothing), so
 * nothing here shows in UTXO listings or the REST staking routes: only blocks and txs. One tx comes
 * later, in the world's history: TransferSubnetOwnershipTx exists from Durango on (lateTxsIn).
 */
import { PRIMARY_SUBNET_ID, UPGRADES } from "../constants.ts"
import type { NetCtx } from "./context.ts"
import { Kind, nodeIdString } from "./ids.ts"
import { SUBNET_EVM_VM_ID } from "./l1.ts"
import { APRICOT, BANFF, ELASTIC_RULES, type Step } from "./archiveScript.ts"
import type { BlockRef, Owners, PBlockType, StakingInfo, TxRecord, UtxoRecord } from "./types.ts"

const HOUR = 3600
const DAY = 86_400

export interface ArchiveBlock {
  readonly type: PBlockType
  readonly time: number
  readonly txs: ReadonlyArray<TxRecord>
}

/** A stand-in for the X-chain asset an elastic subnet stakes: a plain id of nothing this world issues. */
const ELASTIC_ASSET = 9_999

export class Archive {
  private built: { readonly blocks: ReadonlyArray<ArchiveBlock>; readonly txs: ReadonlyArray<TxRecord> } | undefined
  private readonly times = new Map<Step, number>()
  private n = 0
  private readonly txs: TxRecord[] = []
  private readonly blocks: Array<{ readonly type: PBlockType; readonly time: number; readonly txs: TxRecord[] }> = []

  constructor(
    private readonly ctx: NetCtx,
    /** Time of the world's first own block: the archive ends before it. */
    private readonly end: number
  ) {}

  get length(): number {
    return this.build().blocks.length
  }

  time(index: number): number {
    return (this.build().blocks[index] as ArchiveBlock).time
  }

  block(index: number): ArchiveBlock | undefined {
    return this.build().blocks[index]
  }

  /** The archive tx with locator index n (the late TransferSubnetOwnershipTx included). */
  tx(n: number): TxRecord | undefined {
    return this.build().txs[n] ?? (n === this.lateIndex() ? this.lateTx() : undefined)
  }

  /** Archive txs that belong to the world's history, timed in [from, to). */
  lateTxsIn(from: number, to: number): TxRecord[] {
    this.build()
    const at = this.lateTime()
    return at !== undefined && at >= from && at < to ? [this.lateTx()] : []
  }

  private build(): { readonly blocks: ReadonlyArray<ArchiveBlock>; readonly txs: ReadonlyArray<TxRecord> } {
    if (this.built === undefined) {
      const up = UPGRADES[this.ctx.name]
      const apricotEnd = Math.min(up.banff, this.end)
      APRICOT.forEach((s, i) => this.times.set(s, up.genesis + Math.floor((i / APRICOT.length) * (apricotEnd - up.genesis))))
      // Banff steps only when the world's history starts after Banff with room for them
      if (this.end - up.banff > BANFF.length * DAY) BANFF.forEach((s, i) => this.times.set(s, up.banff + HOUR + Math.floor((i / BANFF.length) * (this.end - up.banff - DAY))))
      for (const s of [...APRICOT, ...BANFF]) if (this.times.has(s)) this.step(s)
      this.built = { blocks: this.blocks, txs: this.txs }
    }
    return this.built
  }

  private at(s: Step): number {
    const t = this.times.get(s)
    if (t === undefined) throw new Error(`archive step ${s} has no time`)
    return t
  }

  private ref(): BlockRef {
    const height = this.blocks.length
    return { chain: "P", height: BigInt(height), blockId: this.ctx.blockId("P", height), timestamp: this.lastTime }
  }

  private lastTime = 0

  private push(type: PBlockType, time: number, txs: TxRecord[]): void {
    this.blocks.push({ type, time, txs })
    this.lastTime = time
  }

  /** A proposal block with its tx and the block that decides it. */
  private proposal(era: "Apricot" | "Banff", time: number, make: () => TxRecord, decided: "Commit" | "Abort"): void {
    this.lastTime = time
    const tx = make()
    this.push(`${era}ProposalBlock`, time, [tx])
    this.push(`${era}${decided}Block`, time, [])
  }

  private standard(era: "Apricot" | "Banff", time: number, ...makes: Array<() => TxRecord>): void {
    this.lastTime = time
    this.push(`${era}StandardBlock`, time, makes.map((m) => m()))
  }

  private step(s: Step): void {
    const t = this.at(s)
    switch (s) {
      case "genesis":
        return this.push("ApricotCommitBlock", t, [])
      case "advance1":
      case "advance2":
        return this.proposal("Apricot", t, () => this.advanceTime(t), "Commit")
      case "advanceAborted":
        return this.proposal("Apricot", t, () => this.advanceTime(t + HOUR), "Abort")
      case "createSubnet":
        return this.standard("Apricot", t, () => this.plain("CreateSubnetTx", { l1: { kind: "createSubnet", owner: this.owner(1) } }))
      case "createChain":
        return this.standard("Apricot", t, () =>
          this.plain("CreateChainTx", { l1: { kind: "createChain", subnetId: this.subnet(1), chainName: "archive", vmId: SUBNET_EVM_VM_ID, genesis: { network: this.ctx.name } } })
        )
      case "addValidator1":
        return this.proposal("Apricot", t, () => this.staker("AddValidatorTx", 1, t, this.at("rewardValidator1")), "Commit")
      case "addDelegator1":
        return this.proposal("Apricot", t, () => this.staker("AddDelegatorTx", 1, t, this.at("rewardDelegator1")), "Commit")
      case "addSubnetValidator1":
        return this.proposal("Apricot", t, () => this.subnetValidator(1, t, this.at("rewardValidator1") - DAY), "Commit")
      case "import1":
        return this.push("ApricotAtomicBlock", t, [this.withTime(t, () => this.importTx())])
      case "export1":
        return this.push("ApricotAtomicBlock", t, [this.withTime(t, () => this.exportTx())])
      case "addValidator2":
        return this.proposal("Apricot", t, () => this.staker("AddValidatorTx", 2, t, this.at("rewardValidator2")), "Commit")
      case "rewardDelegator1":
        return this.proposal("Apricot", t, () => this.reward("addDelegator1"), "Commit")
      case "rewardValidator1":
        return this.proposal("Apricot", t, () => this.reward("addValidator1"), "Commit")
      case "rewardValidator2":
        return this.proposal("Apricot", t, () => this.reward("addValidator2"), "Abort")
      case "atomicInStandard":
        // before ApricotPhase5 (only when the world's history starts that early) atomic txs had blocks of their own
        if (t < UPGRADES[this.ctx.name].apricotPhase5) return this.push("ApricotAtomicBlock", t, [this.withTime(t, () => this.importTx())])
        return this.standard("Apricot", t, () => this.importTx(), () => this.exportTx())
      case "addValidator3":
        return this.standard("Banff", t, () => this.staker("AddValidatorTx", 3, t, this.at("rewardValidator3")), () => this.plain("CreateSubnetTx", { l1: { kind: "createSubnet", owner: this.owner(2) } }))
      case "addDelegator3":
        return this.standard("Banff", t, () => this.staker("AddDelegatorTx", 3, t, this.at("rewardDelegator3")), () => this.subnetValidator(3, t, this.at("removeSubnetValidator")))
      case "transform":
        return this.standard("Banff", t, () => this.transform())
      case "addPermissionless":
        return this.standard("Banff", t, () => this.staker("AddPermissionlessValidatorTx", 4, t, this.at("rewardPermissionless")))
      case "addPermissionlessDelegator":
        return this.standard("Banff", t, () => this.staker("AddPermissionlessDelegatorTx", 4, t, this.at("rewardPermissionlessDelegator")))
      case "empty":
        return this.push("BanffStandardBlock", t, [])
      case "removeSubnetValidator":
        return this.standard("Banff", t, () => this.plain("RemoveSubnetValidatorTx", { subnet: { kind: "removeValidator", subnetId: this.subnet(1), nodeId: this.nodeId(3) } }), () => this.importTx(), () => this.exportTx())
      case "rewardDelegator3":
        return this.proposal("Banff", t, () => this.reward("addDelegator3"), "Commit")
      case "rewardValidator3":
        return this.proposal("Banff", t, () => this.reward("addValidator3"), "Commit")
      case "rewardPermissionlessDelegator":
        return this.proposal("Banff", t, () => this.reward("addPermissionlessDelegator"), "Commit")
      case "rewardPermissionless":
        return this.proposal("Banff", t, () => this.reward("addPermissionless"), "Abort")
    }
  }

  private withTime(t: number, make: () => TxRecord): TxRecord {
    this.lastTime = t
    return make()
  }

  // — txs —

  private nextId(): { readonly n: number; readonly id: string } {
    const n = this.n++
    return { n, id: this.ctx.id(Kind.ArchiveTx, n) }
  }

  private owner(k: number): Owners {
    return this.ctx.owner(this.ctx.shortId(Kind.ArchiveAddress, k))
  }

  private nodeId(v: number): string {
    return nodeIdString(this.ctx.shortId(Kind.ArchiveNode, v))
  }

  /** The id of the k-th subnet the archive creates (its CreateSubnetTx's id). */
  private subnet(k: 1 | 2): string {
    const created = this.txs.filter((t) => t.type === "CreateSubnetTx")[k - 1]
    if (created === undefined) throw new Error(`archive subnet ${k} is used before it is created`)
    return created.id
  }

  private utxo(txId: string, index: number, amount: bigint, owner: Owners, kind: UtxoRecord["kind"], on: { created: "P" | "X"; consumed: "P" | "X" | "C" } = { created: "P", consumed: "P" }): UtxoRecord {
    const block = this.ref()
    return { txId, outputIndex: index, assetId: this.ctx.avaxAssetId, amount, owners: owner, stakeableLocktime: 0n, createdOn: on.created, consumedOn: on.consumed, created: block, listed: block, spent: undefined, kind }
  }

  /** The input paying a tx: an output of nothing this world issues (served as it is). */
  private funding(n: number, txId: string, amount: bigint, createdOn: "P" | "X" = "P"): UtxoRecord {
    return { ...this.utxo(this.ctx.id(Kind.ArchiveTx, n, 1), 0, amount, this.owner(100 + n), "transfer", { created: createdOn, consumed: "P" }), spent: { txId, block: this.ref() } }
  }

  private base(n: number, id: string, type: TxRecord["type"], spend: bigint): TxRecord {
    const fee = this.ctx.cfg.txFee
    const change = this.ctx.big(1_000_000n, 9_000_000_000n, "archive-change", n)
    return {
      id,
      chain: "P",
      type,
      block: this.ref(),
      issueTime: this.lastTime,
      inputs: [this.funding(n, id, spend + fee + change)],
      outputs: [this.utxo(id, 0, change, this.owner(100 + n), "transfer")],
      memo: new Uint8Array(0),
      burned: fee
    }
  }

  private record(tx: TxRecord): TxRecord {
    this.txs.push(tx)
    return tx
  }

  private plain(type: TxRecord["type"], extra: Partial<TxRecord>): TxRecord {
    const { n, id } = this.nextId()
    return this.record({ ...this.base(n, id, type, 0n), ...extra })
  }

  private advanceTime(time: number): TxRecord {
    const { id } = this.nextId()
    return this.record({ id, chain: "P", type: "AdvanceTimeTx", block: this.ref(), issueTime: this.lastTime, inputs: [], outputs: [], advanceTime: time, memo: new Uint8Array(0), burned: 0n })
  }

  private importTx(): TxRecord {
    const { n, id } = this.nextId()
    const fee = this.ctx.cfg.txFee
    const amount = this.ctx.big(1_000_000_000n, 500_000_000_000n, "archive-import", n)
    const imported = this.funding(n, id, amount + fee, "X")
    return this.record({
      id,
      chain: "P",
      type: "ImportTx",
      block: this.ref(),
      issueTime: this.lastTime,
      inputs: [],
      outputs: [this.utxo(id, 0, amount, this.owner(100 + n), "transfer")],
      imported: { sourceChain: "X", utxos: [imported] },
      memo: new Uint8Array(0),
      burned: fee
    })
  }

  private exportTx(): TxRecord {
    const { n, id } = this.nextId()
    const amount = this.ctx.big(1_000_000_000n, 500_000_000_000n, "archive-export", n)
    const base = this.base(n, id, "ExportTx", amount)
    return this.record({ ...base, exported: { destinationChain: "C", utxos: [this.utxo(id, 1, amount, this.owner(200 + n), "transfer", { created: "P", consumed: "C" })] } })
  }

  /** The archive's validator v (1…4) or its delegator, staking from `at` to `end`. */
  private staker(type: "AddValidatorTx" | "AddDelegatorTx" | "AddPermissionlessValidatorTx" | "AddPermissionlessDelegatorTx", v: number, at: number, end: number): TxRecord {
    const { n, id } = this.nextId()
    const validator = type === "AddValidatorTx" || type === "AddPermissionlessValidatorTx"
    const elastic = type.startsWith("AddPermissionless")
    const weight = validator ? this.ctx.big(2_000_000_000_000n, 3_000_000_000_000n, "archive-stake", n) : this.ctx.big(25_000_000_000n, 500_000_000_000n, "archive-stake", n)
    const rewardOwner = this.owner(300 + n)
    const staking: StakingInfo = {
      role: validator ? "validator" : "delegator",
      nodeId: this.nodeId(v),
      subnetId: elastic ? this.subnet(2) : PRIMARY_SUBNET_ID,
      start: at + HOUR,
      end,
      weight,
      ...(validator ? { shares: 20_000, delegationRewardOwner: this.owner(400 + n) } : {}),
      rewardOwner,
      estimatedReward: 0n
    }
    const stake = { ...this.utxo(id, 1, weight, this.owner(100 + n), "stake"), staking: { start: at + HOUR, end }, ...(elastic ? { assetId: this.ctx.id(Kind.ArchiveTx, ELASTIC_ASSET, 2) } : {}) }
    return this.record({ ...this.base(n, id, type, elastic ? 0n : weight), stake: [stake], staking })
  }

  private subnetValidator(v: number, at: number, end: number): TxRecord {
    const weight = BigInt(this.ctx.int(1, 100, "archive-subnet-weight", v))
    return this.plain("AddSubnetValidatorTx", { subnet: { kind: "addValidator", subnetId: this.subnet(1), nodeId: this.nodeId(v), start: at + HOUR, end, weight } })
  }

  private transform(): TxRecord {
    return this.plain("TransformSubnetTx", {
      subnet: {
        kind: "transform",
        subnetId: this.subnet(2),
        assetId: this.ctx.id(Kind.ArchiveTx, ELASTIC_ASSET, 2),
        rules: ELASTIC_RULES
      }
    })
  }

  /** The RewardValidatorTx closing the staker tx of an earlier step. */
  private reward(of: Step): TxRecord {
    const at = this.at(of)
    const staked = this.txs.find((t) => t.staking !== undefined && t.issueTime === at)
    if (staked === undefined) throw new Error(`archive step ${of} issued no staker tx`)
    const { id } = this.nextId()
    // the staker tx learns which tx closed it: swapped in the list and in its block
    const closed = { ...staked, rewardTxId: id }
    this.txs[this.txs.indexOf(staked)] = closed
    for (const b of this.blocks) if (b.txs.includes(staked)) b.txs[b.txs.indexOf(staked)] = closed
    return this.record({ id, chain: "P", type: "RewardValidatorTx", block: this.ref(), issueTime: this.lastTime, inputs: [], outputs: [], rewardedTxId: staked.id, memo: new Uint8Array(0), burned: 0n })
  }

  // — the one tx of a later era —

  private lateIndex(): number {
    return APRICOT.length + BANFF.length + 1_000
  }

  /** TransferSubnetOwnershipTx of the first subnet, three days into Durango (or into the world's history, if later). */
  private lateTime(): number | undefined {
    const at = Math.max(UPGRADES[this.ctx.name].durango, this.end) + 3 * DAY
    return at < this.ctx.anchor ? at : undefined
  }

  private lateTx(): TxRecord {
    const at = this.lateTime() ?? this.ctx.anchor
    const n = this.lateIndex()
    const id = this.ctx.id(Kind.ArchiveTx, n)
    const fee = this.ctx.cfg.txFee
    const block = this.ctx.blockAt("P", at)
    const funding: UtxoRecord = { ...this.utxo(this.ctx.id(Kind.ArchiveTx, n, 1), 0, fee, this.owner(100 + n), "transfer"), created: block, listed: block, spent: { txId: id, block } }
    return {
      id,
      chain: "P",
      type: "TransferSubnetOwnershipTx",
      block,
      issueTime: at,
      inputs: [funding],
      outputs: [],
      subnet: { kind: "transferOwnership", subnetId: this.subnet(1), owner: this.owner(2_000) },
      memo: new Uint8Array(0),
      burned: fee
    }
  }
}
