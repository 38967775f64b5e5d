import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

// Gapless numbering: one counter row per company, mode, sequence ('invoice', 'credit-note') and
// year. The next value is taken with an upsert in the transaction that uses it, so a rollback
// gives it back, and on PostgreSQL the row lock makes concurrent numberings of one company take
// their turns.

export interface SequenceKey {
  companyId: string;
  /** 1 live, 0 test. */
  livemode: number;
  sequence: 'invoice' | 'credit-note' | string;
  year: number;
}

export class NumberSequences {
  /** Advances the counter (creating it at 1) and returns the new value. */
  async next(t: Kysely<Database>, key: SequenceKey): Promise<number> {
    const row = await t
      .insertInto('number_sequences')
      .values({
        company_id: key.companyId,
        livemode: key.livemode,
        sequence: key.sequence,
        year: key.year,
        last_value: 1,
      })
      .onConflict((oc) =>
        oc
          .columns(['company_id', 'livemode', 'sequence', 'year'])
          .doUpdateSet({ last_value: sql<number>`number_sequences.last_value + 1` }),
      )
      .returning('last_value')
      .executeTakeFirstOrThrow();
    return Number(row.last_value);
  }

  /** The last value handed out; 0 when none was. */
  async last(t: Kysely<Database>, key: SequenceKey): Promise<number> {
    const row = await t
      .selectFrom('number_sequences')
      .select('last_value')
      .where('company_id', '=', key.companyId)
      .where('livemode', '=', key.livemode)
      .where('sequence', '=', key.sequence)
      .where('year', '=', key.year)
      .executeTakeFirst();
    return row ? Number(row.last_value) : 0;
  }
}
