import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

// Fastify's own response serializer compiler (fast-json-stringify), asked for each route's
// function when that route first answers with that status instead of for every route at
// start-up. The serializers of about 150 routes with several answers each were about 26 MB of the
// process's memory right after start-up (204 → 178 MB), though most routes of a deployment are
// rarely or never called (issue 30: RSS after start-up). The compiler, its options and the
// functions it makes are Fastify's defaults; only the moment changes. Validators stay eager:
// giving Fastify a validator compiler of our own would also change how it reads header schemas.

type Serializer = (data: unknown) => string;

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every answer serializer not compiled yet (LazySchemas.compileAll); returns how many. */
    compileAllSchemas(): number;
  }
}

export interface LazySchemas {
  /** Fastify's `schemaController` option. */
  controller: NonNullable<FastifyServerOptions['schemaController']>;
  /** Compiles every serializer not compiled yet, as start-up used to (a schema that cannot compile throws); returns how many. */
  compileAll(): number;
}

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array']);

/** A union's options as plain types: string for a string literal, its type for a typed schema. */
function typesOf(options: unknown[]): string[] | null {
  const types: string[] = [];
  for (const option of options) {
    if (!isSchema(option) || 'anyOf' in option || 'oneOf' in option || 'allOf' in option || '$ref' in option)
      return null;
    if (typeof option.const === 'string') types.push('string');
    else if (option.type === 'null' && Object.keys(option).length === 1) types.push('null');
    else if (typeof option.type === 'string' && SIMPLE_TYPES.has(option.type)) types.push(option.type);
    else return null;
  }
  return types;
}

/**
 * The response schema as the serializer needs it. fast-json-stringify serializes each anyOf by
 * running an Ajv validator per option until one matches: for every nullable field and every
 * union of literals (a status, each of a key's permissions), on every answer. That was an eighth
 * of a health check's time. Here a union of string literals becomes a string, and a union of one
 * typed schema (or literals) with null becomes a type list (['string', 'null']), which the
 * serializer tells apart with typeof. What is written is the same; validation and the OpenAPI
 * document keep the exact schemas. Anything else is left as it is.
 */
export function forSerializing(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forSerializing);
  if (!isSchema(schema)) return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema))
    copy[key] =
      key === 'const' || key === 'enum' || key === 'examples' || key === 'default' ? value : forSerializing(value);
  const union = Array.isArray(copy.anyOf) ? 'anyOf' : Array.isArray(copy.oneOf) ? 'oneOf' : null;
  if (union === null) return copy;
  const options = copy[union] as unknown[];
  const types = typesOf(options);
  if (types === null) return copy;
  const distinct = [...new Set(types.filter((type) => type !== 'null'))];
  // Literals alone, or one kind of schema with null: anything more still needs the validator.
  if (distinct.length !== 1) return copy;
  const typed = options.filter((option) => isSchema(option) && option.type !== 'null' && option.const === undefined);
  if (typed.length > 1) return copy;
  const { [union]: _options, ...siblings } = copy;
  const nullable = types.includes('null');
  const base = typed.length === 1 ? { ...(typed[0] as Schema) } : {};
  return { ...base, ...siblings, type: nullable ? [distinct[0], 'null'] : distinct[0] };
}

export function lazySchemas(): LazySchemas {
  const serializers = SerializerSelector();
  const pending = new Set<() => Serializer>();
  const buildSerializer = (externalSchemas: unknown, options: unknown) => {
    const compilerOf = serializers(externalSchemas, options as never);
    return (route: { method: string; url: string; httpStatus: string; schema?: unknown }): Serializer => {
      let compiled: Serializer | undefined;
      const compile = () => {
        pending.delete(compile);
        return (compiled ??= compilerOf({ ...route, schema: forSerializing(route.schema) } as never));
      };
      pending.add(compile);
      return (data) => (compiled ?? compile())(data);
    };
  };
  return {
    controller: { compilersFactory: { buildSerializer: buildSerializer as never } },
    compileAll() {
      const all = [...pending];
      for (const compile of all) compile();
      return all.length;
    },
  };
}
