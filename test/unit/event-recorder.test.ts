import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Dialect, EventRow, EventWriter, NumberedInsert } from '../../src/db/dialect.js';
import type { Database } from '../../src/db/schema.js';
import { EventRecorder } from '../../src/events/event-recorder.js';

// An issued create writes invoice.created and invoice.finalized with the same invoice: the answer
// is built and written as JSON once for both, and events with objects of their own keep them.

/** The rows the recorder hands its dialect's writer, which stands in for the database here. */
function recorderWritingTo(written: EventRow[][]): EventRecorder {
  const writer = {
    writeNumberedInsert: async (_t: unknown, events: EventRow[], change: NumberedInsert) => {
      written.push(events);
      return `INV-${change.placeholder.length}`;
    },
  } as unknown as EventWriter;
  return new EventRecorder({} as Kysely<Database>, { eventWriter: () => writer } as unknown as Dialect);
}

const scope = { companyId: 'com_1', livemode: true, requestId: 'req_1' };
const change = {
  companyId: 'com_1',
  livemode: 1,
  sequence: 'invoice',
  year: 2026,
  prefix: 'INV-2026-',
  width: 6,
  insert: { table: 'invoices', values: {} },
  numberColumn: 'number',
  belonging: null,
} as unknown as Omit<NumberedInsert, 'placeholder'>;

describe('EventRecorder.recordWithNumberedInsert', () => {
  it('makes the object of events that share objectOf once, with the number’s stand-in, and writes the same JSON for each', async () => {
    const written: EventRow[][] = [];
    const stands: string[] = [];
    const objectOf = (stand: string) => {
      stands.push(stand);
      return { number: stand, total: '10.00' };
    };
    const otherOf = () => ({ status: 'issued' });

    await recorderWritingTo(written).recordWithNumberedInsert(
      {} as Kysely<Database>,
      scope,
      [
        { type: 'invoice.created', objectOf },
        { type: 'invoice.finalized', objectOf },
        { type: 'invoice.updated', objectOf: otherOf },
      ],
      change,
      { inSteps: async () => 'unused' },
      new Date('2026-11-28T10:00:00Z'),
    );

    expect(stands).toHaveLength(1);
    const [events] = written;
    expect(events!.map((event) => event.type)).toEqual(['invoice.created', 'invoice.finalized', 'invoice.updated']);
    expect(JSON.parse(events![0]!.object)).toEqual({ number: stands[0], total: '10.00' });
    expect(events![1]!.object).toBe(events![0]!.object);
    expect(JSON.parse(events![2]!.object)).toEqual({ status: 'issued' });
    expect(new Set(events!.map((event) => event.id)).size).toBe(3);
  });
});
