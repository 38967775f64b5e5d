import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentReadPool, ReadError } from '../../../src/documents/read/read-pool.js';
import { readAndJudge } from '../../../src/documents/read/received.js';
import type { WorkerPoolSettings } from '../../../src/lib/worker-pool.js';
import { EINVOICE_DIR } from '../../helpers/einvoice-files.js';
import { eventually } from '../../helpers/eventually.js';

// Received documents are read in worker threads exactly as on the calling thread, and the pool
// keeps its limits: a bounded queue, a deadline and a heap limit per document, after which a
// fresh worker reads the next one.

const SETTINGS: WorkerPoolSettings = { workers: 1, maxQueued: 4, timeoutMs: 60_000, maxMemoryMb: 256 };
const example = (name: string) => readFileSync(join(EINVOICE_DIR, 'examples', name));

/** Bytes as base64, whatever view holds them (a worker's answer has Uint8Arrays where the reader made Buffers). */
function plain(value: unknown): unknown {
  if (ArrayBuffer.isView(value))
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

let pool: DocumentReadPool | undefined;
afterEach(async () => pool?.close());

describe('the reading pool', () => {
  it('reads and judges in a worker what the reader makes of it on the calling thread', async () => {
    pool = new DocumentReadPool(SETTINGS);
    for (const name of ['cen-ubl/ubl-tc434-example2.xml', 'facturx/EN16931_Einfach.pdf', 'broken/EmptyPDFA1.pdf']) {
      const bytes = example(name);
      const [inWorker, inThread] = await Promise.all([pool.read(bytes, null), readAndJudge(bytes)]);
      expect(plain(inWorker), name).toEqual(plain(inThread));
    }
  });

  it('refuses a document at once when as many wait as the queue holds, and reads those it took', async () => {
    pool = new DocumentReadPool({ ...SETTINGS, maxQueued: 1 });
    const bytes = example('cen-ubl/ubl-tc434-example1.xml');
    // The first goes to the worker, the second waits; there is no room for a third.
    const taken = [pool.read(bytes, null), pool.read(bytes, null)];
    const refused = await pool.read(bytes, null).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ReadError);
    expect(refused).toMatchObject({ reason: 'busy', message: 'Too many documents are waiting to be read (1).' });
    for (const read of await Promise.all(taken)) expect(read.ok).toBe(true);
  });

  it('ends a reading that passes its deadline, and the next document is read by a fresh worker', async () => {
    pool = new DocumentReadPool({ ...SETTINGS, timeoutMs: 1 });
    await expect(pool.read(example('cen-ubl/ubl-tc434-example1.xml'), null)).rejects.toMatchObject({
      reason: 'timeout',
      message: 'The document took longer than 1 ms to read.',
    });
    await pool.close();
    pool = new DocumentReadPool(SETTINGS);
    expect((await pool.read(example('cen-ubl/ubl-tc434-example1.xml'), null)).ok).toBe(true);
  });

  it('ends a reading that needs more memory than a worker may take', async () => {
    pool = new DocumentReadPool({ ...SETTINGS, maxMemoryMb: 4 });
    await expect(pool.read(example('facturx/EN16931_Einfach.pdf'), null)).rejects.toMatchObject({ reason: 'memory' });
  });

  it('refuses an entity bomb and a document nested past the depth limit without expanding them', async () => {
    pool = new DocumentReadPool(SETTINGS);
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><Invoice>&lol9;</Invoice>`;
    expect(await pool.read(Buffer.from(laughs), 'application/xml')).toMatchObject({ ok: false, code: 'XML_DOCTYPE' });
    const deep = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</Invoice>`;
    expect(await pool.read(Buffer.from(deep), 'application/xml')).toMatchObject({ ok: false, code: 'XML_TOO_DEEP' });
  });

  it('gives back the heap its readings grew once its worker has had no document for a moment', async () => {
    pool = new DocumentReadPool(SETTINGS);
    const committed = async () => (await pool!.heaps()).reduce((sum, heap) => sum + heap.total_physical_size, 0);
    // The largest heap seen between readings (one slow turn here cannot hide the growth).
    let grown = 0;
    for (let reading = 0; reading < 10; reading++) {
      expect((await pool.read(example('facturx/EN16931_Einfach.pdf'), null)).ok).toBe(true);
      grown = Math.max(grown, await committed());
    }
    await eventually(async () => expect(await committed()).toBeLessThan(grown * 0.7), {
      what: 'the idle worker to give back its heap',
    });
    expect(await pool.heaps()).toHaveLength(1);
  });
});
