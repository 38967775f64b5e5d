import { describe, expect, it } from 'vitest';
import { KeyedTurns } from '../../src/lib/keyed-turns.js';

/** A promise and the function that settles it, so a test decides when each piece of work ends. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('KeyedTurns', () => {
  it('runs the work of one key one piece at a time, in the order it arrived', async () => {
    const turns = new KeyedTurns();
    const log: string[] = [];
    const first = gate();
    const a = turns.run('k', async () => {
      log.push('a starts');
      await first.opened;
      log.push('a ends');
    });
    const b = turns.run('k', async () => {
      log.push('b starts');
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['a starts']);
    first.open();
    await Promise.all([a, b]);
    expect(log).toEqual(['a starts', 'a ends', 'b starts']);
  });

  it('runs the work of different keys side by side', async () => {
    const turns = new KeyedTurns();
    const held = gate();
    const log: string[] = [];
    const a = turns.run('one', async () => {
      await held.opened;
      log.push('one');
    });
    await turns.run('two', async () => log.push('two'));
    expect(log).toEqual(['two']);
    held.open();
    await a;
    expect(log).toEqual(['two', 'one']);
  });

  it('goes on with the next piece after one that failed, and gives each its own outcome', async () => {
    const turns = new KeyedTurns();
    const failed = turns.run('k', async () => {
      throw new Error('refused');
    });
    const next = turns.run('k', async () => 'done');
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('done');
  });
});
