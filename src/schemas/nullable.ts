import { Type, type SchemaOptions, type TSchema } from '@sinclair/typebox';

/** A value that may also be sent as null (treated as absent). */
export function Nullable<T extends TSchema>(schema: T, description?: string) {
  const options: SchemaOptions = description === undefined ? {} : { description };
  return Type.Union([schema, Type.Null()], options);
}
