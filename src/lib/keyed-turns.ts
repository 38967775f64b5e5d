// Work of one key runs one piece at a time, in the order it arrived; work of different keys runs
// side by side. Used where the database would make the same pieces wait for each other anyway
// (one company's invoice counter row): queued here they wait as promises, not as database
// backends that all wake and contend each time the one ahead of them commits.

export class KeyedTurns {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await mine;
    } finally {
      // The last in line leaves no entry behind.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
