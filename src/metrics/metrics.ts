import type { HeapInfo } from 'node:v8';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// What an operator watches: traffic and latency by route and status, refusals, key-check
// failures, the database pool and whether rate limiting has fallen back to local counters.
// Each app has its own registry, so tests that build many apps do not share counters.

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface MetricsSources {
  poolStats: () => PoolStats | null;
  /** 1 while rate limiting counts in process because the shared store (Redis) is unavailable. */
  rateLimitDegraded: () => boolean;
  usesSharedRateLimitStore: boolean;
  /** Log lines dropped so far because stdout was not being read. */
  droppedLogLines?: () => number;
  /** PDFs rendering in the worker pool and waiting for a thread. */
  pdfLoad?: () => { rendering: number; waiting: number };
  /** Received documents in the reading pool. */
  receiveLoad?: () => { reading: number; waiting: number };
  /** The V8 heaps of each worker pool's live threads, by pool (pdf, receive). */
  workerHeaps?: Record<string, () => Promise<HeapInfo[]>>;
}

const MAX_REQUEST_SERIES = 2000;

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  /**
   * The (counter, histogram) children of each method, route and status: prom-client hashes a
   * label object on every call, which showed in the profile of every request. Bounded: routes,
   * methods and statuses are few, and past the bound the labels are looked up as before.
   */
  private readonly requestSeries = new Map<
    string,
    { count: Counter.Internal; time: Histogram.Internal<'method' | 'route' | 'status'> }
  >();
  private readonly rateLimited: Counter<'reason'>;
  private readonly keyFailures: Counter<'reason'>;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to finishing its response.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'rate_limited_requests_total',
      help: 'Requests refused with 429: over the rate limit, or too many failed key checks from one address.',
      labelNames: ['reason'],
      registers,
    });
    this.keyFailures = new Counter({
      name: 'api_key_check_failures_total',
      help: 'Presented API keys that were refused, by reason.',
      labelNames: ['reason'],
      registers,
    });
    new Gauge({
      name: 'pdf_render_documents',
      help: 'PDFs in the render pool, by state: rendering in a worker thread, or waiting for one.',
      labelNames: ['state'],
      registers,
      collect() {
        const load = sources.pdfLoad?.();
        if (!load) return;
        this.set({ state: 'rendering' }, load.rendering);
        this.set({ state: 'waiting' }, load.waiting);
      },
    });
    new Gauge({
      name: 'receive_read_documents',
      help: 'Received e-invoices in the reading pool, by state: reading in a worker thread, or waiting for one.',
      labelNames: ['state'],
      registers,
      collect() {
        const load = sources.receiveLoad?.();
        if (!load) return;
        this.set({ state: 'reading' }, load.reading);
        this.set({ state: 'waiting' }, load.waiting);
      },
    });
    new Gauge({
      name: 'worker_thread_heap_bytes',
      help: 'V8 heap of the worker threads, summed by pool (pdf, receive) and state: committed, or used.',
      labelNames: ['pool', 'state'],
      registers,
      async collect() {
        for (const [pool, heaps] of Object.entries(sources.workerHeaps ?? {})) {
          const threads = await heaps();
          this.set(
            { pool, state: 'committed' },
            threads.reduce((sum, heap) => sum + heap.total_physical_size, 0),
          );
          this.set(
            { pool, state: 'used' },
            threads.reduce((sum, heap) => sum + heap.used_heap_size, 0),
          );
        }
      },
    });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state (PostgreSQL; SQLite has one connection and reports none).',
      labelNames: ['state'],
      registers,
      collect() {
        const stats = sources.poolStats();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
        this.set({ state: 'max' }, stats.max);
      },
    });
    new Gauge({
      name: 'rate_limit_store_degraded',
      help: '1 while rate-limit counters fall back to this process because Redis is unavailable.',
      registers,
      collect() {
        this.set(sources.rateLimitDegraded() ? 1 : 0);
      },
    });
    let droppedReported = 0;
    new Counter({
      name: 'log_lines_dropped_total',
      help: 'Log lines dropped because stdout was not being read and the log buffer was full.',
      registers,
      collect() {
        const dropped = sources.droppedLogLines?.() ?? 0;
        if (dropped > droppedReported) this.inc(dropped - droppedReported);
        droppedReported = dropped;
      },
    });
    new Gauge({
      name: 'rate_limit_store_shared',
      help: '1 when rate-limit counters are shared through Redis (REDIS_URL set).',
      registers,
      collect() {
        this.set(sources.usesSharedRateLimitStore ? 1 : 0);
      },
    });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { count: this.requests.labels(labels), time: this.duration.labels(labels) };
      if (this.requestSeries.size < MAX_REQUEST_SERIES) this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.time.observe(seconds);
  }

  countRateLimited(reason: 'limit' | 'auth_failures'): void {
    this.rateLimited.inc({ reason });
  }

  countKeyFailure(reason: string): void {
    this.keyFailures.inc({ reason });
  }
}
