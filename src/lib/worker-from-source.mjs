// A pool worker's entry when the service runs from its TypeScript sources (the tests):
// registers the hooks that load .ts files, then starts the worker itself.
import { register } from 'node:module';
import { workerData } from 'node:worker_threads';

register(new URL('./typescript-hooks.mjs', import.meta.url));
await import(workerData.entry);
