/** Time constants of the windowed datasets (Unix seconds). */
export const HOUR = 3_600
export const DAY = 86_400

/**
 * Where the nightly history of a network starts by default: the month the Avalanche mainnet
 * (and its C-Chain) went live. Fuji's history starts later; its early windows answer empty.
 */
export const NETWORK_LAUNCH = Date.UTC(2020, 8, 1) / 1000
