// Where schemas sit: inside a schema (the JSON Schema 2020-12 keywords whose values are schemas)
// and inside an OpenAPI 3.1 document (parameters, bodies, responses, headers, components). Both
// walks rebuild what they visit through `map`, so a pass can replace any schema it meets.

type Json = Record<string, unknown>;
export type SchemaMap = (schema: Json) => Json;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// `items` and `additionalItems` also appear in their draft-07 forms (a list; TypeBox's tuples).
const SCHEMA_KEYWORDS = [
  'additionalProperties',
  'items',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];

function mapValues(record: Json, map: (value: Json) => Json): Json {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, isObject(value) ? map(value) : value]));
}

/** The schema with `map` applied to each of its direct subschemas (not to itself). */
export function mapSubschemas(schema: Json, map: SchemaMap): Json {
  const result: Json = { ...schema };
  for (const key of SCHEMA_KEYWORDS) if (isObject(schema[key])) result[key] = map(schema[key]);
  for (const key of SCHEMA_LIST_KEYWORDS) {
    const list = schema[key];
    if (Array.isArray(list)) result[key] = list.map((item: unknown) => (isObject(item) ? map(item) : item));
  }
  for (const key of SCHEMA_MAP_KEYWORDS) if (isObject(schema[key])) result[key] = mapValues(schema[key], map);
  return result;
}

/** Applies `map` to the schemas of a map of media types (content). */
function mapContent(content: unknown, map: SchemaMap): unknown {
  if (!isObject(content)) return content;
  return mapValues(content, (media) => (isObject(media.schema) ? { ...media, schema: map(media.schema) } : media));
}

/** A parameter or header object: its schema, or the schema of its content. */
function mapParameter(parameter: Json, map: SchemaMap): Json {
  const result: Json = { ...parameter };
  if (isObject(parameter.schema)) result.schema = map(parameter.schema);
  if (parameter.content !== undefined) result.content = mapContent(parameter.content, map);
  return result;
}

function mapResponse(response: Json, map: SchemaMap): Json {
  const result: Json = { ...response };
  if (isObject(response.headers)) result.headers = mapValues(response.headers, (header) => mapParameter(header, map));
  if (response.content !== undefined) result.content = mapContent(response.content, map);
  return result;
}

function mapRequestBody(body: Json, map: SchemaMap): Json {
  return body.content === undefined ? body : { ...body, content: mapContent(body.content, map) };
}

function mapOperation(operation: Json, map: SchemaMap): Json {
  const result: Json = { ...operation };
  if (Array.isArray(operation.parameters)) {
    result.parameters = operation.parameters.map((p: unknown) => (isObject(p) ? mapParameter(p, map) : p));
  }
  if (isObject(operation.requestBody)) result.requestBody = mapRequestBody(operation.requestBody, map);
  if (isObject(operation.responses))
    result.responses = mapValues(operation.responses, (response) => mapResponse(response, map));
  return result;
}

const OPERATION_KEYS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function mapPathItem(item: Json, map: SchemaMap): Json {
  const result: Json = { ...item };
  for (const [key, value] of Object.entries(item)) {
    if (OPERATION_KEYS.has(key) && isObject(value)) result[key] = mapOperation(value, map);
  }
  if (Array.isArray(item.parameters))
    result.parameters = item.parameters.map((p: unknown) => (isObject(p) ? mapParameter(p, map) : p));
  return result;
}

/**
 * The document with `map` applied to every schema an operation or component uses directly
 * (`map` walks further down itself). Component schemas are not mapped themselves, only their
 * subschemas: they already have their place.
 */
export function mapDocumentSchemas<D extends Json>(document: D, map: SchemaMap): D {
  const result: Json = { ...document };
  for (const key of ['paths', 'webhooks']) {
    if (isObject(document[key])) result[key] = mapValues(document[key], (item) => mapPathItem(item, map));
  }
  if (isObject(document.components)) {
    const components: Json = { ...document.components };
    const { schemas, parameters, headers, responses, requestBodies } = document.components;
    if (isObject(schemas)) components.schemas = mapValues(schemas, (schema) => mapSubschemas(schema, map));
    if (isObject(parameters)) components.parameters = mapValues(parameters, (p) => mapParameter(p, map));
    if (isObject(headers)) components.headers = mapValues(headers, (h) => mapParameter(h, map));
    if (isObject(responses)) components.responses = mapValues(responses, (r) => mapResponse(r, map));
    if (isObject(requestBodies)) components.requestBodies = mapValues(requestBodies, (b) => mapRequestBody(b, map));
    result.components = components;
  }
  return result as D;
}
