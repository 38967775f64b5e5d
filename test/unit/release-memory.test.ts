import { getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { releaseMemory } from '../../src/lib/release-memory.js';

function heapSpace(name: string): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === name)!.physical_space_size;
}

describe('releaseMemory', () => {
  it('gives back the young generation that a burst of allocations grew', () => {
    // Objects that survive a few scavenges make V8 grow the young generation, as start-up does.
    let kept: unknown[] = [];
    for (let round = 0; round < 40; round++) {
      kept.push(Array.from({ length: 20_000 }, (_, i) => ({ round, i, text: `value ${i}` })));
      if (kept.length > 8) kept = kept.slice(-8);
    }
    kept = [];
    const grown = heapSpace('new_space');
    releaseMemory();
    expect(heapSpace('new_space')).toBeLessThan(grown);
  });

  it('leaves no gc function to the contexts made after it', () => {
    releaseMemory();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
