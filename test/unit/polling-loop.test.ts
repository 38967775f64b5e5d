import { describe, expect, it } from 'vitest';
import { PollingLoop } from '../../src/lib/polling-loop.js';
import { eventually } from '../helpers/eventually.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the polling loop', () => {
  it('never runs two looks at once, and a nudge during a look makes exactly one more look after it', async () => {
    let active = 0;
    let maxActive = 0;
    let looks = 0;
    const gate = deferred();
    const loop = new PollingLoop({
      intervalMs: 60_000,
      nudgeDelayMs: 0,
      look: async () => {
        looks += 1;
        active += 1;
        maxActive = Math.max(maxActive, active);
        if (looks === 1) await gate.promise;
        active -= 1;
      },
      onError: () => {},
    });
    loop.start();
    await eventually(() => expect(looks).toBe(1));
    loop.nudge();
    void loop.poll();
    void loop.poll();
    gate.resolve();
    await eventually(() => expect(looks).toBe(2));
    await loop.current;
    await loop.stop();
    expect(maxActive).toBe(1);
    expect(looks).toBe(2);
  });

  it('looks again at once when a look says it found more than it could take', async () => {
    let looks = 0;
    const loop = new PollingLoop({
      intervalMs: 60_000,
      nudgeDelayMs: 0,
      look: async () => {
        looks += 1;
        return looks < 3;
      },
      onError: () => {},
    });
    loop.start();
    await eventually(() => expect(looks).toBe(3));
    await loop.stop();
    expect(looks).toBe(3);
  });

  it('reports a failed look and keeps looking after it', async () => {
    const errors: unknown[] = [];
    let looks = 0;
    const loop = new PollingLoop({
      intervalMs: 60_000,
      nudgeDelayMs: 0,
      look: async () => {
        looks += 1;
        if (looks === 1) throw new Error('the database is away');
      },
      onError: (error) => errors.push(error),
    });
    loop.start();
    await eventually(() => expect(errors).toHaveLength(1));
    loop.nudge();
    await eventually(() => expect(looks).toBe(2));
    await loop.stop();
    expect((errors[0] as Error).message).toBe('the database is away');
  });

  it('stop waits for the look under way and starts no new one', async () => {
    const gate = deferred();
    let looks = 0;
    let finished = false;
    const loop = new PollingLoop({
      intervalMs: 60_000,
      nudgeDelayMs: 0,
      look: async () => {
        looks += 1;
        await gate.promise;
        finished = true;
      },
      onError: () => {},
    });
    loop.start();
    await eventually(() => expect(looks).toBe(1));
    const stopping = loop.stop();
    loop.nudge();
    await loop.poll();
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    expect(loop.isRunning).toBe(false);
    expect(looks).toBe(1);
  });
});
