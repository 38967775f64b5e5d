import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

// HTTP/1.1 lets a client send many requests on one connection before reading any answer
// (pipelining). Node parses them all at once and runs every one, keeping each answer in memory
// until the client reads: twenty large answers per connection from a client that never reads.
// Here a connection's next request starts only once the answer before it has left the process
// (flushed to the kernel), so a connection holds at most one answer in memory. A connection on
// which nothing moves is dropped after SOCKET_TIMEOUT_MS, and the requests still waiting on it
// end without being run.

const inFlight = Symbol('answerInFlight');

type TrackedSocket = Socket & { [inFlight]?: Promise<void> };

/**
 * Resolves once the answer is finished and the socket's buffer is empty, or the connection is
 * gone. Listens on the socket only while waiting for its buffer to drain, so a long keep-alive
 * connection gathers no listeners.
 */
function answerGone(response: ServerResponse, socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    response.once('finish', () => {
      if (socket.destroyed || socket.writableLength === 0) return done();
      socket.once('drain', done);
      socket.once('close', done);
    });
    // Closed before it finished: the connection went away, or the answer was abandoned.
    response.once('close', () => {
      if (!response.writableFinished) done();
    });
  });
}

export function registerOneAnswerAtATime(app: FastifyInstance): void {
  // A callback hook: most requests have no answer before them and go on at once, without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as TrackedSocket | undefined;
    if (!socket || typeof socket.once !== 'function') return done();
    const previous = socket[inFlight];
    const current = answerGone(reply.raw, socket);
    socket[inFlight] = current;
    void current.then(() => {
      if (socket[inFlight] === current) delete socket[inFlight];
    });
    if (!previous) return done();
    void previous.then(() => {
      // The connection went away while this request waited: nobody is left to answer.
      if (socket.destroyed) reply.hijack();
      done();
    });
  });
}
