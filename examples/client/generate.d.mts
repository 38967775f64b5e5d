/** The committed client file for an OpenAPI document: its TypeScript types. */
export function renderClientFiles(document: unknown): Promise<{ schemaDts: string }>;
