import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from './eventually.js';

// A webhook receiver on loopback: it records every request and answers as the test says
// (a status, after a delay, or never). It is a real HTTP server; nothing about delivery is faked.

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
  /** When the answer was sent (or the connection dropped). */
  answeredAt: number | null;
}

export type Answer = { status: number; body?: string; delayMs?: number } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests whose answer is not sent yet (hanging or delayed). */
  open: number;
  /** The most requests open at once. */
  maxOpen: number;
  /** Requests in flight right now, per webhook-id: more than one would be two attempts at once. */
  maxOpenPerId: number;
  /** How the nth request (0-based) is answered; default 200. */
  answer: (index: number, headers: IncomingHttpHeaders) => Answer;
  close(): Promise<void>;
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
}

export async function startReceiver(options: { host?: string; answer?: Receiver['answer'] } = {}): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1';
  const hanging = new Set<ServerResponse>();
  const openPerId = new Map<string, number>();
  const receiver: Receiver = {
    url: '',
    received: [],
    open: 0,
    maxOpen: 0,
    maxOpenPerId: 0,
    answer: options.answer ?? (() => ({ status: 200 })),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    waitFor: async (predicate, timeoutMs = 20_000) => {
      await eventually(() => predicate(receiver.received) || false, {
        timeoutMs,
        intervalMs: 20,
        what: () => `what was expected (the receiver got ${receiver.received.length} requests)`,
      });
    },
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const record: Received = {
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        answeredAt: null,
      };
      const index = receiver.received.push(record) - 1;
      const id = String(request.headers['webhook-id'] ?? '');
      openPerId.set(id, (openPerId.get(id) ?? 0) + 1);
      receiver.maxOpenPerId = Math.max(receiver.maxOpenPerId, openPerId.get(id)!);
      receiver.open += 1;
      receiver.maxOpen = Math.max(receiver.maxOpen, receiver.open);
      const settle = () => {
        if (record.answeredAt !== null) return;
        record.answeredAt = Date.now();
        receiver.open -= 1;
        openPerId.set(id, openPerId.get(id)! - 1);
      };
      response.on('close', settle);
      const answer = receiver.answer(index, request.headers);
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      const send = () => {
        response.writeHead(answer.status, { 'content-type': 'text/plain' });
        response.end(answer.body ?? 'ok');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  receiver.url = `http://${host}:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
