// The load generator, run as its own process so that it does not share an event loop with the
// server it measures. Reads one JSON scenario from argv and prints one JSON result.
import autocannon from 'autocannon';

const scenario = JSON.parse(process.argv[2]);
let counter = 0;
const runId = Math.random().toString(36).slice(2, 8);

function bodyFor(kind) {
  counter += 1;
  if (kind === 'organization') return JSON.stringify({ name: `Bench ${runId} ${counter}`, isCustomer: true });
  if (kind === 'invoice') return JSON.stringify(scenario.invoiceBody);
  if (kind === 'raw') return JSON.stringify({ name: `Raw ${runId} ${counter}`, isCustomer: true });
  return undefined;
}

const result = await autocannon({
  url: scenario.url,
  connections: scenario.connections,
  duration: scenario.duration,
  requests: [
    {
      method: scenario.method,
      headers: scenario.headers,
      setupRequest: (request) => (scenario.body ? { ...request, body: bodyFor(scenario.body) } : request),
    },
  ],
});

process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: result.statusCodeStats,
  })}\n`,
);
