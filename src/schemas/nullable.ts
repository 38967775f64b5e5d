import { Type, type TSchema } from '@sinclair/typebox';

/** A value that may also be sent as null (treated as absent). */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}
