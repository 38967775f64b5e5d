// The version is part of the path. Responses carry the major version in meta.apiVersion.
export const API_VERSION = 'v1.0.0';
export const API_MAJOR_VERSION = 'v1';
export const SERVED_VERSIONS = [API_VERSION] as const;
export const BASE_PATH = `/api/${API_VERSION}/public`;
/** Where people read the API (Swagger UI, src/openapi/plugin.ts); the panel links to it. */
export const DOCS_PATH = '/docs';
