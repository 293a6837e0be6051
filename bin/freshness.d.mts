/** bin/freshness.mjs: whether dist/ is newer than every source below `root` (ending with a slash). */
export declare const distIsFresh: (root: string) => boolean
