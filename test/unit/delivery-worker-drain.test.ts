import { describe, expect, it } from 'vitest';
import type { Sealer } from '../../src/lib/sealer.js';
import type {
  AttemptRecord,
  DeliveryJob,
  DeliveryRepository,
  LeaseRequest,
} from '../../src/webhooks/delivery-repository.js';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import type { DispatchRound, Outbox } from '../../src/webhooks/outbox-repository.js';

// drain() with the worker's storage replaced by counters in memory: no database, no network (the
// jobs' URLs are refused before any connection), so what is tested is when drain() returns.

function job(id: string): DeliveryJob {
  return {
    id,
    companyId: 'company',
    endpointId: 'endpoint',
    eventId: `event-${id}`,
    attempts: 0,
    url: 'ftp://receiver.example/hook',
    secretSealed: 'sealed',
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    event: {
      id: `event-${id}`,
      livemode: 1,
      type: 'organization.created',
      created_at: '2026-11-27T00:00:00.000Z',
      request_id: null,
      object: '{}',
    },
  };
}

/** An outbox that hands out `rounds` dispatch rounds, each making one delivery due, then has nothing. */
function fakeStorage(rounds: number, retryScheduleMs: number[] = []) {
  const due: DeliveryJob[] = [];
  const recorded: { id: string; attempt: AttemptRecord }[] = [];
  let dispatched = 0;
  const outbox = {
    async dispatch(): Promise<DispatchRound> {
      await Promise.resolve();
      if (dispatched >= rounds) return { made: 0, moved: 0, more: false };
      dispatched += 1;
      due.push(job(`d${dispatched}`));
      return { made: 1, moved: 1, more: false };
    },
    async cleanUp(): Promise<number> {
      return 0;
    },
  } as unknown as Outbox;
  const deliveries = {
    async lease(request: LeaseRequest): Promise<DeliveryJob[]> {
      await Promise.resolve();
      return due.splice(0, request.limit);
    },
    async recordAttempt(leased: DeliveryJob, _owner: string, attempt: AttemptRecord): Promise<{ disabled: boolean }> {
      await new Promise((resolve) => setImmediate(resolve));
      recorded.push({ id: leased.id, attempt });
      return { disabled: false };
    },
    async release(): Promise<void> {},
  } as unknown as DeliveryRepository;
  const sealer = { open: (sealed: string) => sealed } as unknown as Sealer;
  const worker = new DeliveryWorker(deliveries, outbox, sealer, {
    maxConcurrent: 2,
    retryScheduleMs,
    allowPrivateUrls: false,
    resolve: async () => [],
    onError: (error) => {
      throw error;
    },
  });
  return { worker, recorded, dispatchedRounds: () => dispatched };
}

describe('the delivery worker drain', () => {
  it('returns once every outbox row is dispatched and every due delivery has its attempt recorded', async () => {
    const { worker, recorded, dispatchedRounds } = fakeStorage(5);
    worker.start();
    try {
      await worker.drain();
      expect(dispatchedRounds()).toBe(5);
      expect(recorded.map((r) => r.id).sort()).toEqual(['d1', 'd2', 'd3', 'd4', 'd5']);
      expect(recorded.every((r) => !r.attempt.succeeded && r.attempt.error?.startsWith('not sent:'))).toBe(true);
      expect(worker.activeCount).toBe(0);
    } finally {
      await worker.stop();
    }
  });

  it('does not wait for a retry that is due later', async () => {
    const { worker, recorded } = fakeStorage(1, [3_600_000]);
    worker.start();
    try {
      await worker.drain();
      expect(recorded.map((r) => r.id)).toEqual(['d1']);
    } finally {
      await worker.stop();
    }
  });

  it('returns at once from a stopped worker', async () => {
    const { worker, recorded } = fakeStorage(3);
    await worker.drain();
    expect(recorded).toEqual([]);
  });
});
