/** Metric buckets (rule 1): hours; days at 00:00 UTC; weeks from Monday 00:00 UTC; calendar months. */
export type TimeInterval = "hour" | "day" | "week" | "month"

export const TIME_INTERVALS: ReadonlyArray<TimeInterval> = ["hour", "day", "week", "month"]

const DAY = 86_400

/** Start of the bucket holding t. */
export const alignDown = (t: number, interval: TimeInterval): number => {
  switch (interval) {
    case "hour":
      return Math.floor(t / 3600) * 3600
    case "day":
      return Math.floor(t / DAY) * DAY
    case "week": {
      const d = Math.floor(t / DAY)
      // 1970-01-01 was a Thursday: day 4 (1970-01-05) is the first Monday
      return (d - ((d + 3) % 7 + 7) % 7) * DAY
    }
    case "month": {
      const date = new Date(t * 1000)
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000
    }
  }
}

/** Start of the bucket after the one starting at `start`. */
export const nextStart = (start: number, interval: TimeInterval): number => {
  switch (interval) {
    case "hour":
      return start + 3600
    case "day":
      return start + DAY
    case "week":
      return start + 7 * DAY
    case "month": {
      const date = new Date(start * 1000)
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000
    }
  }
}

/** Start of the bucket before the one starting at `start`. */
export const prevStart = (start: number, interval: TimeInterval): number => alignDown(start - 1, interval)
