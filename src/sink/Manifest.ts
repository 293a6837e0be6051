/**
 * The compaction manifest moved to src/compact/Manifest.ts (compaction writes it). This keeps the
 * path src/crawl/CommittedKeys.ts imports until that file imports compact/Manifest.ts itself;
 * nothing else may import it.
 */
export { holdsPartOf, readManifest } from "../compact/Manifest.ts"
