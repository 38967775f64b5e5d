#!/usr/bin/env node
// The admin CLI. The TypeScript sources are compiled to dist/ by `npm ci` (prepare) and `npm start`.
// The runtime check comes first and imports nothing else, so an old Node stops with one line.
import { requireSupportedRuntime } from '../dist/runtime.js';

requireSupportedRuntime();
const { main } = await import('../dist/cli/main.js');
await main();
