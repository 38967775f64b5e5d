// Every GET is also answered to HEAD: the same status and headers, no body. The document says so
// with a `head` operation beside each `get`, derived from it, so that the two cannot disagree.
// Generators that know HEAD get a typed call; the others skip it.

type Json = Record<string, unknown>;

interface Operation extends Json {
  operationId?: string;
  summary?: string;
  responses?: Record<string, Json>;
}

const RESPONSES = '#/components/responses/';

/**
 * A response without its body. A shared response (a $ref into components.responses) gets a
 * shared twin without body, `<name>WithoutBody`, added to `sharedResponses`.
 */
function withoutBody(response: Json, sharedResponses: Record<string, Json>): Json {
  const target = response.$ref;
  if (typeof target === 'string' && target.startsWith(RESPONSES)) {
    const name = `${target.slice(RESPONSES.length)}WithoutBody`;
    sharedResponses[name] ??= withoutBody(sharedResponses[target.slice(RESPONSES.length)]!, sharedResponses);
    return { $ref: `${RESPONSES}${name}` };
  }
  const { content: _content, ...rest } = response;
  return rest;
}

/** The HEAD twin of a GET operation: same parameters, security and statuses; headers, no content. */
export function headOperationOf(get: Operation, sharedResponses: Record<string, Json>): Operation {
  const { operationId, summary, description: _description, responses, ...rest } = structuredClone(get);
  const head: Operation = {
    ...rest,
    ...(operationId === undefined
      ? {}
      : { operationId: `head${operationId[0]!.toUpperCase()}${operationId.slice(1)}` }),
    summary: `${summary ?? 'The GET'} (headers only)`,
    description: 'Answers as GET does, with the same status and headers, but without a body.',
    responses: {},
  };
  for (const [status, response] of Object.entries(responses ?? {})) {
    // 405 is about the other methods of the path; HEAD is served wherever GET is.
    if (status !== '405') head.responses![status] = withoutBody(response, sharedResponses);
  }
  return head;
}

/** The path item with a `head` operation right after its `get` (unless it already has one). */
export function withHeadOperation(
  item: Record<string, unknown>,
  sharedResponses: Record<string, Json>,
): Record<string, unknown> {
  if (!item.get || item.head) return item;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    result[key] = value;
    if (key === 'get') result.head = headOperationOf(value as Operation, sharedResponses);
  }
  return result;
}
