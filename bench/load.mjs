// The load generator, run as its own process so that it does not share an event loop with the
// server it measures. Reads one JSON scenario from stdin and prints one JSON result.
//
// A scenario may name `paths`: each request takes the next one (finalize takes a fresh draft per
// request), or `bodies`, taken in turn; and `consumed` says how many were handed out. With `collect`, it sends `amount`
// requests and prints the ids of what they created (the bench makes its drafts this way).
import { text } from 'node:stream/consumers';
import autocannon from 'autocannon';

const scenario = JSON.parse(await text(process.stdin));
let counter = 0;
let pathIndex = 0;
const runId = Math.random().toString(36).slice(2, 8);
const collected = [];

function bodyFor(kind) {
  counter += 1;
  if (kind === 'organization') return JSON.stringify({ name: `Bench ${runId} ${counter}`, isCustomer: true });
  if (kind === 'raw') return JSON.stringify({ name: `Raw ${runId} ${counter}`, isCustomer: true });
  if (kind === 'json')
    return JSON.stringify(scenario.bodies ? scenario.bodies[counter % scenario.bodies.length] : scenario.json);
  return undefined;
}

function setupRequest(request) {
  const next = { ...request };
  if (scenario.body) next.body = bodyFor(scenario.body);
  if (scenario.paths) {
    // With `cycle` the paths go round; without, past the end the last one repeats, and the answers
    // say so (a finalized draft is 409).
    const at = scenario.cycle ? pathIndex % scenario.paths.length : Math.min(pathIndex, scenario.paths.length - 1);
    next.path = scenario.paths[at];
    pathIndex += 1;
  }
  return next;
}

const result = await autocannon({
  url: scenario.url,
  connections: scenario.connections,
  ...(scenario.collect ? { amount: scenario.collect } : { duration: scenario.duration }),
  requests: [
    {
      method: scenario.method,
      headers: scenario.headers,
      setupRequest,
      ...(scenario.collect
        ? { onResponse: (status, body) => status === 201 && collected.push(JSON.parse(body).data.id) }
        : {}),
    },
  ],
});

process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    meanMs: result.latency.mean,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: result.statusCodeStats,
    consumed: pathIndex,
    ...(scenario.collect ? { ids: collected } : {}),
  })}\n`,
);
