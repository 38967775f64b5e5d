// The baseline: a bare node:http server that parses a JSON POST and answers JSON, and answers
// JSON to GET. Every scenario's throughput is reported as a ratio to this, measured in the same run.
import { createServer } from 'node:http';

let counter = 0;
const server = createServer((req, res) => {
  if (req.method === 'POST') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"success":false}');
        return;
      }
      const out = JSON.stringify({ success: true, data: { id: `raw_${++counter}`, name: body.name ?? null } });
      res.writeHead(201, { 'content-type': 'application/json' }).end(out);
    });
    return;
  }
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ success: true, data: { status: 'ok' } }));
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
