import type { FastifyReply } from 'fastify';

/** A rendered document (DocumentService's answer): its bytes, type, file name and, for a PDF, its SHA-256. */
export interface RenderedDocument {
  body: string | Buffer;
  contentType: string;
  filename: string;
  sha256?: string;
}

/**
 * Sends a rendered document as itself (not in the envelope): its Content-Type, a filename
 * carrying its number, and for a PDF the digest of these very bytes (RFC 9530; for an issued
 * document it is the one its answer shows). The API's document routes and the panel's
 * downloads both answer through here.
 */
export function sendDocument(reply: FastifyReply, result: RenderedDocument): FastifyReply {
  if (result.sha256)
    reply
      .header('repr-digest', `sha-256=:${Buffer.from(result.sha256, 'hex').toString('base64')}:`)
      .header('etag', `"${result.sha256}"`);
  return reply
    .type(result.contentType)
    .header('content-disposition', `attachment; filename="${result.filename}"`)
    .send(result.body);
}
