#!/usr/bin/env node
// The admin CLI. The TypeScript sources are compiled to dist/ by `npm ci` (prepare) and `npm start`.
import { main } from '../dist/cli/main.js';

await main();
