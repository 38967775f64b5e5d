// An SMTP server on loopback in a process of its own, for tests whose own process blocks (the
// docs examples run bash synchronously): it offers STARTTLS with the certificate whose files are
// in SMTP_SINK_KEY and SMTP_SINK_CERT, takes every message, and prints its port on stdout.
import { readFileSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  key: readFileSync(process.env.SMTP_SINK_KEY, 'utf8'),
  cert: readFileSync(process.env.SMTP_SINK_CERT, 'utf8'),
  authOptional: true,
  disabledCommands: ['AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => callback(null));
  },
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
