// The one way a test waits for something that happens on its own time (a delivery, a process, a
// page): ask again until it holds, and fail at a deadline with what the last ask said. Never a
// fixed sleep, never an assertion on how long it took.

export interface EventuallyOptions {
  /** How long to keep asking; generous, since a loaded machine is slow but not wrong. */
  timeoutMs?: number;
  /** The pause between asks. */
  intervalMs?: number;
  /** What is awaited, for the message at the deadline ("the endpoint to be disabled"); a function is asked then. */
  what?: string | (() => string);
}

/** Thrown from a check to stop asking at once: what is awaited can no longer happen (a child died). */
export class GiveUp extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/**
 * Runs assertions that must hold on every ask, not only at the end (a status that may be 503 but
 * nothing else while waiting): a failure ends the wait at once with that assertion's error.
 */
export function atOnce(assertions: () => void): void {
  try {
    assertions();
  } catch (error) {
    throw new GiveUp(error);
  }
}

/**
 * Calls `check` until it returns something other than `false` without throwing, and resolves to
 * that. A check is a predicate (`() => got.length === 3`) or holds assertions (`() => expect(x)…`);
 * at the deadline the last assertion error is thrown, or an error naming `what`. A `GiveUp`
 * thrown by the check ends the wait at once.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  options: EventuallyOptions = {},
): Promise<Exclude<T, false>> {
  const { timeoutMs = 10_000, intervalMs = 25, what = 'the condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result = await check();
      if (result !== false) return result as Exclude<T, false>;
      lastError = undefined;
    } catch (error) {
      if (error instanceof GiveUp) throw error.reason instanceof Error ? error.reason : error;
      lastError = error;
    }
    if (Date.now() >= deadline) {
      if (lastError !== undefined) throw lastError;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
