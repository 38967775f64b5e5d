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

export function lazySchemas(): LazySchemas {
  const serializers = SerializerSelector();
  const pending = new Set<() => Serializer>();
  const buildSerializer = (externalSchemas: unknown, options: unknown) => {
    const compilerOf = serializers(externalSchemas, options as never);
    return (route: { method: string; url: string; httpStatus: string; schema?: unknown }): Serializer => {
      let compiled: Serializer | undefined;
      const compile = () => {
        pending.delete(compile);
        return (compiled ??= compilerOf(route as never));
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
