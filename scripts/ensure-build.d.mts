/** The first reason dist/ is older than its sources under `root` (the clone by default), or null when it is fresh. */
export function staleReason(root?: string): string | null;
