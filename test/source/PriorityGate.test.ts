import { describe, expect, it } from "@effect/vitest"
import { Clock, Deferred, Effect, Fiber, Ref, TestClock } from "effect"
import { makePriorityGate, type Tokens } from "../../src/source/PriorityGate.ts"

/** A bucket of `rate` tokens a second and no burst beyond one, empty at 0: the first token is there at 1000 / rate. */
const bucket = (rate: number): Tokens => {
  let taken = 0
  const nextAt = () => ((taken + 1) * 1000) / rate
  return { waitMs: (now) => Math.max(0, nextAt() - now), take: () => void (taken += 1) }
}

/** Requests through `gate` of the given priorities, in that order of arrival, each recording when it got through. */
const arrive = (gate: ReturnType<typeof makePriorityGate>, priorities: ReadonlyArray<number>, hold: Effect.Effect<void> = Effect.void) =>
  Effect.gen(function* () {
    const order = yield* Ref.make<Array<readonly [number, number]>>([])
    const fibers: Array<Fiber.RuntimeFiber<void>> = []
    for (const p of priorities) {
      fibers.push(yield* Effect.fork(gate.withPermit(p)(Effect.zipRight(Effect.flatMap(Clock.currentTimeMillis, (t) => Ref.update(order, (o) => [...o, [p, t] as const])), hold))))
      yield* Effect.yieldNow() // each in the line before the next arrives
    }
    return { order, fibers }
  })

describe("PriorityGate: the listing furthest along first", () => {
  it.effect("given requests of listings at page 1 then page 15 waiting for a token, when the next token comes, then the page-15 one goes, the page-1 one a token later", () =>
    Effect.gen(function* () {
      const gate = makePriorityGate(10, bucket(10))
      const { order, fibers } = yield* arrive(gate, [1, 15])
      expect(gate.waiting()).toBe(2)
      yield* TestClock.adjust(100)
      expect(yield* Ref.get(order)).toEqual([[15, 100]])
      yield* TestClock.adjust(100)
      expect(yield* Ref.get(order)).toEqual([[15, 100], [1, 200]])
      yield* Fiber.joinAll(fibers)
    })
  )

  it.effect("given equal pages, when tokens come, then they go in order of arrival", () =>
    Effect.gen(function* () {
      const gate = makePriorityGate(10, bucket(10))
      const { order, fibers } = yield* arrive(gate, [3, 3, 0, 3])
      yield* TestClock.adjust(1_000)
      yield* Fiber.joinAll(fibers)
      expect(yield* Ref.get(order)).toEqual([[3, 100], [3, 200], [3, 300], [0, 400]])
    })
  )

  it.effect("given priorities, when many wait, then tokens still come at the bucket's rate and no faster", () =>
    Effect.gen(function* () {
      const gate = makePriorityGate(64, bucket(5))
      const { order, fibers } = yield* arrive(gate, [0, 9, 2, 7, 2, 30])
      yield* TestClock.adjust(5_000)
      yield* Fiber.joinAll(fibers)
      const got = yield* Ref.get(order)
      expect(got.map(([, t]) => t)).toEqual([200, 400, 600, 800, 1_000, 1_200])
      expect(got.map(([p]) => p)).toEqual([30, 9, 7, 2, 2, 0])
    })
  )

  it.effect("given one slot held, when requests of pages 1 and 15 wait for it, then the page-15 one takes it when it frees", () =>
    Effect.gen(function* () {
      const gate = makePriorityGate(1)
      const release = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(gate.withPermit(0)(Deferred.await(release)))
      yield* Effect.yieldNow()
      const { order, fibers } = yield* arrive(gate, [1, 15], Effect.sleep(10))
      expect(yield* Ref.get(order)).toEqual([])
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(holder)
      yield* TestClock.adjust(100)
      yield* Fiber.joinAll(fibers)
      expect(yield* Ref.get(order)).toEqual([[15, 0], [1, 10]])
    })
  )

  it.effect("given a waiter interrupted in the line, when the slot frees, then the next one gets it and no slot is lost", () =>
    Effect.gen(function* () {
      const gate = makePriorityGate(1)
      const release = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(gate.withPermit(0)(Deferred.await(release)))
      yield* Effect.yieldNow()
      const { order, fibers } = yield* arrive(gate, [20, 5])
      yield* Fiber.interrupt(fibers[0]!)
      expect(gate.waiting()).toBe(1)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(holder)
      yield* Fiber.join(fibers[1]!)
      expect(yield* Ref.get(order)).toEqual([[5, 0]])
      // both slots' holders are gone: one more goes at once
      const { order: after, fibers: more } = yield* arrive(gate, [0])
      yield* Fiber.joinAll(more)
      expect(yield* Ref.get(after)).toEqual([[0, 0]])
    })
  )

  it.effect("given the slots grown while requests wait, when resized, then as many more go at once", () =>
    Effect.gen(function* () {
      const gate = makePriorityGate(1)
      const release = yield* Deferred.make<void>()
      const { order, fibers } = yield* arrive(gate, [0, 1, 2], Deferred.await(release))
      expect((yield* Ref.get(order)).map(([p]) => p)).toEqual([0])
      yield* gate.resize(3)
      yield* TestClock.adjust(1) // the granted fibers run
      expect((yield* Ref.get(order)).map(([p]) => p)).toEqual([0, 2, 1])
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.joinAll(fibers)
    })
  )
})
