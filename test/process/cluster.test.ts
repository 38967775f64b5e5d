import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';
import {
  deleteRedisKeys,
  REDIS_AVAILABLE,
  sharedStoresEnv,
  TEST_REDIS_URL,
  uniqueRedisPrefix,
} from '../helpers/redis.js';
import { cliJson, freePort, runServerToExit, startServer, type ServerProcess } from '../helpers/servers.js';
import { eventually } from '../helpers/eventually.js';

// CLUSTER_WORKERS=2: the built server (dist/server.js) as a cluster primary with two workers on
// one port, one PostgreSQL schema and one Redis. Which process answered is read from the JSON log:
// every line carries `pid`, and a request's completion line carries its request id. The primary's
// children are read from /proc.

const RATE_LIMIT_MAX = 30;

interface Answer {
  status: number;
  requestId: string;
}

/** GET over a connection of its own, so that the primary hands each request to a worker afresh. */
function get(url: string, key: string): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(url, { agent: false, headers: { 'x-api-key': key } }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode!, requestId: String(res.headers['x-request-id']) }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** The live (not yet reaped) child processes of `pid`. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid …"; comm may itself hold spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(ppid) === pid && state !== 'Z') children.push(Number(entry));
  }
  return children.sort((a, b) => a - b);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface LogLine {
  pid: number;
  msg: string;
  requestId?: string;
  workerPid?: number;
}

function logLines(server: ServerProcess): LogLine[] {
  return server.output.flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });
}

/** The pids that logged "listening", in order. */
const listeningPids = (server: ServerProcess) =>
  logLines(server)
    .filter((line) => line.msg.includes('listening; base URL'))
    .map((line) => line.pid);

/** The pid whose access-log line carries each answer's request id (log lines leave asynchronously). */
function servingPids(server: ServerProcess, answers: Answer[]): Promise<number[]> {
  return eventually(
    () => {
      const pidOf = new Map(
        logLines(server)
          .filter((l) => l.msg === 'request completed' || l.msg === 'request errored')
          .map((l) => [l.requestId, l.pid]),
      );
      const pids = answers.map((answer) => pidOf.get(answer.requestId));
      return pids.every((pid) => pid !== undefined) && (pids as number[]);
    },
    { timeoutMs: 15_000, intervalMs: 50, what: 'the access-log line of every answer' },
  );
}

const counts = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
const distinct = (pids: number[]) => [...new Set(pids)].sort((a, b) => a - b);

describe.skipIf(!DIALECTS.includes('postgres') || !REDIS_AVAILABLE)(
  'CLUSTER_WORKERS=2 on one PostgreSQL and one Redis',
  () => {
    const redisPrefix = uniqueRedisPrefix('cluster');
    let database: TestDatabase;
    let server: ServerProcess;
    let env: Record<string, string>;
    let companyId: string;
    const seenWorkers = new Set<number>();

    const primaryPid = () => server.child.pid!;
    const workers = () => {
      const pids = childrenOf(primaryPid());
      for (const pid of pids) seenWorkers.add(pid);
      return pids;
    };
    const newKey = async () =>
      (
        await cliJson<{ key: string }>(
          ['key', 'create', '--company', companyId, '--name', 'cluster', '--permissions', 'organization.create'],
          env,
        )
      ).key;
    const burst = (n: number, key: string) => Promise.all(Array.from({ length: n }, () => get(server.baseUrl, key)));

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      env = { CLUSTER_WORKERS: '2', ...sharedStoresEnv(database.url, redisPrefix, RATE_LIMIT_MAX) };
      server = await startServer(env);
      // startServer returns at the first worker's "listening"; both must be taking connections.
      await eventually(() => distinct(listeningPids(server)).length === 2, {
        timeoutMs: 15_000,
        intervalMs: 50,
        what: 'both workers listening',
      });
      ({ id: companyId } = await cliJson<{ id: string }>(['company', 'create', '--name', 'Cluster GmbH'], env));
    });
    afterAll(async () => {
      await server?.stop();
      // Should the primary have died without its workers, none is left behind.
      for (const pid of seenWorkers) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
      await database?.drop();
      await deleteRedisKeys(redisPrefix);
    });

    it('answers through two worker processes, which are the only children of the primary', async () => {
      const children = workers();
      expect(children).toHaveLength(2);
      expect(children).not.toContain(primaryPid());
      expect(distinct(listeningPids(server))).toEqual(children);

      const answers = await burst(20, await newKey());
      expect(counts(answers.map((a) => a.status))).toEqual({ 200: 20 });
      expect(distinct(await servingPids(server, answers))).toEqual(children);
    });

    it('prints the first-run setup link once, not once per worker', async () => {
      const links = () => server.output.filter((line) => line.includes('/panel/setup?token='));
      await eventually(() => links().length > 0, { timeoutMs: 15_000, intervalMs: 50, what: 'the setup link' });
      expect(links()).toHaveLength(1);
      // That no second one follows is proved once every process has exited (the last test here).
    });

    it('admits exactly RATE_LIMIT_MAX of 3 × RATE_LIMIT_MAX parallel requests with one key, across both workers', async () => {
      const answers = await burst(3 * RATE_LIMIT_MAX, await newKey());
      expect(counts(answers.map((a) => a.status))).toEqual({ 200: RATE_LIMIT_MAX, 429: 2 * RATE_LIMIT_MAX });
      // Both workers answered, so the limit held across processes, not within one.
      expect(distinct(await servingPids(server, answers))).toEqual(workers());
    });

    it('keeps answering when a worker is killed with SIGKILL, and forks a replacement', async () => {
      const before = workers();
      const [victim, survivor] = before as [number, number];
      process.kill(victim, 'SIGKILL');
      // The primary has seen the death once it logs the restart.
      await eventually(
        () =>
          logLines(server).some(
            (line) => line.msg.includes('worker exited; starting a replacement') && line.workerPid === victim,
          ),
        { timeoutMs: 15_000, intervalMs: 50, what: 'the primary to notice the death' },
      );

      const meanwhile = await burst(20, await newKey());
      expect(counts(meanwhile.map((a) => a.status))).toEqual({ 200: 20 });
      expect(await servingPids(server, meanwhile)).not.toContain(victim);

      const after = await eventually(
        () => {
          const now = workers();
          return (
            now.length === 2 &&
            now.includes(survivor) &&
            !now.includes(victim) &&
            listeningPids(server).some((pid) => now.includes(pid) && pid !== survivor) &&
            now
          );
        },
        { timeoutMs: 15_000, intervalMs: 50, what: 'a replacement worker listening' },
      );
      expect(isRunning(victim)).toBe(false);
      const answers = await burst(20, await newKey());
      expect(counts(answers.map((a) => a.status))).toEqual({ 200: 20 });
      expect(distinct(await servingPids(server, answers))).toEqual(after);
    });

    it('stops every process on SIGTERM to the primary and exits 0', async () => {
      const children = workers();
      expect(children).toHaveLength(2);
      const exited = new Promise<number | null>((done) => server.child.once('exit', (code) => done(code)));
      server.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(children.filter(isRunning)).toEqual([]);
      // Each worker shut down on the forwarded signal rather than being cut off.
      const shuttingDown = logLines(server)
        .filter((line) => line.msg.startsWith('shutting down'))
        .map((line) => line.pid);
      expect(distinct(shuttingDown)).toEqual(children);
      // With every process gone nothing more can be printed: the setup link came once in all.
      expect(server.output.filter((line) => line.includes('/panel/setup?token='))).toHaveLength(1);
    });
  },
);

describe('a cluster whose workers cannot start', () => {
  // Nothing listens on the database port, so every worker fails at start; no database is needed.
  const unreachable = async () => `postgres://postgres@127.0.0.1:${await freePort()}/none`;

  it('stops restarting workers that keep dying at start and exits 1, however slowly they die', async () => {
    const { code, output } = await runServerToExit(
      {
        CLUSTER_WORKERS: '2',
        DATABASE_URL: await unreachable(),
        DATABASE_STARTUP_WAIT_MS: '0',
        REDIS_URL: TEST_REDIS_URL,
      },
      170_000,
    );
    expect(code).toBe(1);
    expect(output).toContain('workers keep dying; not restarting them');
    // Two workers, then replacements until the fifth death in a row of a worker that never
    // listened: no spinning, on a fast machine or a loaded one.
    const started = output.split('\n').filter((line) => line.includes('cluster: worker started'));
    expect(started.length).toBeGreaterThanOrEqual(5);
    expect(started.length).toBeLessThanOrEqual(6);
  }, 180_000);

  it('exits 78 without restarting when a worker meets a configuration error that only start-up can check', async () => {
    const { code, output } = await runServerToExit({
      CLUSTER_WORKERS: '2',
      DATABASE_URL: await unreachable(),
      DATA_ENCRYPTION_KEY: '',
      REDIS_URL: TEST_REDIS_URL,
    });
    expect(code).toBe(78);
    expect(output).toContain('DATA_ENCRYPTION_KEY must be set');
    expect(output.split('\n').filter((line) => line.includes('cluster: worker started'))).toHaveLength(2);
  });
});

describe('CLUSTER_WORKERS above 1 without what several processes need', () => {
  it('exits 78 without REDIS_URL, saying that each process would count rate limits alone', async () => {
    const { code, output } = await runServerToExit({
      CLUSTER_WORKERS: '2',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
    });
    expect(code).toBe(78);
    expect(output).toContain('REDIS_URL');
    expect(output).toContain('each would count alone');
    expect(output).not.toContain('PostgreSQL DATABASE_URL');
  });

  it('exits 78 with a SQLite DATABASE_URL, saying that SQLite is built for one process per file', async () => {
    const { code, output } = await runServerToExit({
      CLUSTER_WORKERS: '2',
      DATABASE_URL: `sqlite:${join(tmpdir(), 'cluster-never-created.db')}`,
      REDIS_URL: TEST_REDIS_URL,
    });
    expect(code).toBe(78);
    expect(output).toContain('PostgreSQL DATABASE_URL');
    expect(output).toContain('one process per database file');
    expect(output).not.toContain('REDIS_URL');
  });
});
