import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { AppError, validationError } from '../errors/app-error.js';
import { headerCount } from '../http/headers.js';
import { keptForRepeats, type ErrorCode } from '../errors/codes.js';
import { errorBody } from '../http/envelope.js';
import { requestDigest } from './canonical-json.js';
import { type Answer, type IdempotencyService } from './idempotency-service.js';

/** The request header of the creating routes; Fastify validates it (400 VALIDATION_ERROR). */
export const IdempotencyHeaders = Type.Object({
  'Idempotency-Key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7E]+$',
      description:
        'Makes retrying this request safe: 1 to 255 printable ASCII characters (a UUID is a good choice), scoped to your company, kept 24 hours.',
      examples: ['7f3c9a52-1d4e-4b8a-9c61-0e2f5d8b7a13'],
    }),
  ),
});

/**
 * Node joins repeated headers into one value: two keys must not silently become a third. A
 * preValidation hook, so that it is answered before the body is looked at (the header decides
 * what the request is), after authentication.
 */
export function registerRepeatedKeyCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.headers['idempotency-key'] !== undefined && headerCount(request, 'idempotency-key') > 1) {
      return done(
        validationError([{ field: 'Idempotency-Key', code: 'duplicate_header', message: 'Send this header once.' }]),
      );
    }
    done();
  });
}

/** The codes the idempotency layer adds to a creating route. */
export const IDEMPOTENCY_ERRORS: ErrorCode[] = ['IDEMPOTENCY_CONFLICT', 'IDEMPOTENCY_KEY_REUSED'];

/**
 * The answer of a stored request, for a repeat: the stored status and body, but the repeat's
 * own request id, so that `meta.requestId` equals the `X-Request-Id` header as everywhere else
 * (and `meta.requestTime`/`timestamp` describe the repeat). `data` is exactly what was stored.
 */
function replayBody(request: FastifyRequest, body: unknown): unknown {
  if (body === null || typeof body !== 'object' || !('meta' in body)) return body;
  const meta = { ...(body.meta as Record<string, unknown>) };
  meta.requestId = request.id;
  if ('requestTime' in meta) meta.requestTime = new Date(request.receivedAt).toISOString();
  if ('timestamp' in meta) meta.timestamp = new Date().toISOString();
  return { ...body, meta };
}

/**
 * What a repeat must be the same operation as: the method and route, and the path's ids (a key
 * sent to pay invoice A is not a payment of invoice B).
 */
function operationOf(request: FastifyRequest): string {
  const params = request.params as Record<string, string> | undefined;
  const ids = params
    ? Object.keys(params)
        .sort()
        .map((name) => `${name}=${params[name]}`)
    : [];
  return [`${request.method} ${request.routeOptions.url}`, ...ids].join(' ');
}

/**
 * Runs a creating handler, idempotently when the request carries an Idempotency-Key. `work`
 * does all its database work in the transaction it is given (`undefined` without a key: the
 * services then use their own) and returns the success answer, or throws an AppError.
 */
export async function answerIdempotently(
  request: FastifyRequest,
  reply: FastifyReply,
  idempotency: IdempotencyService,
  work: (trx: Kysely<Database> | undefined) => Promise<Answer>,
  options: {
    sealed?: boolean;
    /**
     * What a repeat must have sent besides the operation, when it is not the JSON body: a raw body
     * (a received document) is named by its SHA-256 and what else decides the answer (the query),
     * never walked byte by byte.
     */
    digestOf?: unknown;
  } = {},
): Promise<FastifyReply> {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' ? header : undefined;
  if (key === undefined || !request.auth) {
    const answer = await work(undefined);
    return reply.code(answer.status).send(answer.body);
  }

  // A refusal worth storing (409 NAME_CONFLICT, say) becomes an answer; the error itself is
  // rethrown below so the error handler answers (and logs) it as usual.
  let refusal: AppError | undefined;
  const outcome = await idempotency.run(
    {
      companyId: request.auth.companyId,
      livemode: request.auth.livemode,
      key,
      digest: requestDigest(operationOf(request), 'digestOf' in options ? options.digestOf : request.body),
      ...(options.sealed ? { sealed: true } : {}),
    },
    async (trx) => {
      try {
        return await work(trx);
      } catch (error) {
        if (!(error instanceof AppError) || !keptForRepeats(error.code)) throw error;
        refusal = error;
        return {
          status: error.status,
          code: error.code,
          body: errorBody(request.id, error.code, error.message, error.details),
        };
      }
    },
  );
  switch (outcome.kind) {
    case 'ran':
      if (refusal && outcome.answer.status === refusal.status) throw refusal;
      return reply.code(outcome.answer.status).send(outcome.answer.body);
    case 'replayed':
      return reply
        .code(outcome.answer.status)
        .header('idempotent-replayed', 'true')
        .send(replayBody(request, outcome.answer.body));
    case 'in-progress':
      throw new AppError('IDEMPOTENCY_CONFLICT', undefined, {
        headers: { 'retry-after': String(outcome.retryAfterSeconds) },
      });
    case 'key-reused':
      throw new AppError('IDEMPOTENCY_KEY_REUSED');
  }
}
