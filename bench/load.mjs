// The load generator, run as its own process so that it does not share an event loop with the
// server it measures. Reads one JSON scenario from stdin and prints one JSON result.
//
// A scenario may name `paths`: each request takes the next one (finalize takes a fresh draft per
// request); a path may be `{ path, headers }`, whose headers join the scenario's (another
// company's key). Or `bodies`, taken in turn: objects sent as JSON (`body: 'json'`) or strings
// sent as they are (`body: 'text'`), each optionally with `headerSets[i]` beside it; or a
// `template` whose `placeholder` each request makes unique by suffixing its `unique` part (`body: 'template'`). `consumed`
// says how many paths were handed out. With `collect`, it sends `amount`
// requests and prints the ids of what they created (the bench makes its drafts this way).
import { text } from 'node:stream/consumers';
import autocannon from 'autocannon';

const scenario = JSON.parse(await text(process.stdin));
let counter = 0;
let pathIndex = 0;
const runId = Math.random().toString(36).slice(2, 8);
const collected = [];
const refusals = [];

function bodyFor(kind) {
  counter += 1;
  if (kind === 'organization') return JSON.stringify({ name: `Bench ${runId} ${counter}`, isCustomer: true });
  if (kind === 'raw') return JSON.stringify({ name: `Raw ${runId} ${counter}`, isCustomer: true });
  if (kind === 'json')
    return JSON.stringify(scenario.bodies ? scenario.bodies[counter % scenario.bodies.length] : scenario.json);
  if (kind === 'text') return scenario.bodies[counter % scenario.bodies.length];
  // One document many times, each with a number of its own (`placeholder` replaced once).
  if (kind === 'template')
    return scenario.template.replace(
      scenario.placeholder,
      scenario.placeholder.replace(scenario.unique, `${scenario.unique}-${runId}-${counter}`),
    );
  return undefined;
}

function setupRequest(request) {
  const next = { ...request };
  if (scenario.body) {
    next.body = bodyFor(scenario.body);
    if (scenario.headerSets)
      next.headers = { ...request.headers, ...scenario.headerSets[counter % scenario.headerSets.length] };
  }
  if (scenario.paths) {
    // With `cycle` the paths go round; without, past the end the last one repeats, and the answers
    // say so (a finalized draft is 409).
    const at = scenario.cycle ? pathIndex % scenario.paths.length : Math.min(pathIndex, scenario.paths.length - 1);
    const entry = scenario.paths[at];
    if (typeof entry === 'string') next.path = entry;
    else {
      next.path = entry.path;
      next.headers = { ...request.headers, ...entry.headers };
    }
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
        ? {
            onResponse: (status, body) => {
              if (status !== 201) {
                if (refusals.length < 3) refusals.push(`${status} ${body.slice(0, 300)}`);
                return;
              }
              const { data } = JSON.parse(body);
              // With headerSets the ids come with the organization they were made for, so the caller knows whose they are.
              collected.push(scenario.headerSets ? { id: data.id, organizationId: data.organizationId } : data.id);
            },
          }
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
    ...(scenario.collect ? { ids: collected, refusals } : {}),
  })}\n`,
);
