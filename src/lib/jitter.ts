/** ±10 %, so that retries of many deliveries failed together do not come back together. */
export function withJitter(delayMs: number, random: () => number = Math.random): number {
  return Math.round(delayMs * (0.9 + 0.2 * random()));
}
