// BENCH_PROFILE: a CPU profile of the service during one scenario's measured run only, not its
// set-up (finalize first makes thousands of drafts) or warm-up, which `--cpu-prof` would mix in.
// The service runs with `--inspect` on a loopback port; V8's profiler is started through the
// inspector's WebSocket just before the measured load and stopped when it ends.
import { writeFileSync } from 'node:fs';

/** The names of the scenarios to profile, from BENCH_PROFILE ('finalize;health'); empty when unset. */
export function profiledScenarios(value = process.env.BENCH_PROFILE) {
  const names = new Set(
    (value ?? '')
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  // The inspector's client is Node's own WebSocket (Node 22 and later; the project's node is 24).
  if (names.size > 0 && typeof globalThis.WebSocket !== 'function')
    throw new Error('BENCH_PROFILE needs a node with a global WebSocket (22 or later)');
  return names;
}

/** A DevTools protocol session with the process whose inspector listens on `port`. */
async function inspectorSession(port) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new globalThis.WebSocket(target.webSocketDebuggerUrl);
  await new Promise((opened, failed) => {
    socket.onopen = opened;
    socket.onerror = () => failed(new Error(`the service's inspector on port ${port} did not answer`));
  });
  let next = 0;
  const pending = new Map();
  socket.onmessage = (message) => {
    const { id, result, error } = JSON.parse(message.data);
    const waiter = pending.get(id);
    if (!waiter) return;
    pending.delete(id);
    if (error) waiter.failed(new Error(`inspector: ${error.message}`));
    else waiter.done(result);
  };
  const call = (method, params = {}) =>
    new Promise((done, failed) => {
      next += 1;
      pending.set(next, { done, failed });
      socket.send(JSON.stringify({ id: next, method, params }));
    });
  return { call, close: () => socket.close() };
}

/** Self time by function (name, file, line) as percentages of the samples, the largest `count` first. */
export function topSelfTime(profile, count = 15) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const where = url ? ` ${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}${where}`;
    self.set(key, (self.get(key) ?? 0) + delta);
    total += delta;
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([what, time]) => ({ what, percent: total > 0 ? (100 * time) / total : 0 }));
}

/**
 * Runs `work` (the measured load) with the service's CPU profiler on, writes the profile to
 * `file` (open it in Chrome DevTools or speedscope) and prints its largest self times.
 */
export async function profiled(port, file, work) {
  const session = await inspectorSession(port);
  try {
    await session.call('Profiler.enable');
    await session.call('Profiler.setSamplingInterval', { interval: 200 });
    await session.call('Profiler.start');
    const out = await work();
    const { profile } = await session.call('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    const lines = topSelfTime(profile).map(({ what, percent }) => `  ${percent.toFixed(1).padStart(5)} %  ${what}`);
    process.stderr.write(`bench: profile of the measured run written to ${file}; self time:\n${lines.join('\n')}\n`);
    return out;
  } finally {
    session.close();
  }
}
