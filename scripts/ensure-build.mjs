// `npm start` and `npm test` run this first: it rebuilds dist/ only when a source is newer than
// its output, so a start right after `npm ci` (whose `prepare` built everything) costs
// milliseconds, not a full `tsc` (about 50 s on a cold machine). Run directly, it prints why it
// rebuilt. Then it stops with one line (exit code 78) when this Node cannot run the service.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
/** Files whose change alters every output. */
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

function* sourcesUnder(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* sourcesUnder(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** The first reason the build is stale, or null when every output is at least as new as its inputs. */
export function staleReason(root = ROOT) {
  const src = join(root, 'src');
  const dist = join(root, 'dist');
  const server = mtimeOf(join(dist, 'server.js'));
  if (server === null) return 'dist/server.js does not exist';
  let oldestOutput = server;
  for (const source of sourcesUnder(src)) {
    const output = join(dist, relative(src, source)).replace(/\.ts$/, '.js');
    const outputTime = mtimeOf(output);
    if (outputTime === null) return `${relative(root, output)} does not exist`;
    if (mtimeOf(source) > outputTime) return `${relative(root, source)} changed after it was built`;
    oldestOutput = Math.min(oldestOutput, outputTime);
  }
  for (const config of CONFIGS) {
    const configTime = mtimeOf(join(root, config));
    if (configTime !== null && configTime > oldestOutput) return `${config} changed after the build`;
  }
  return null;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const reason = staleReason();
  if (reason !== null) {
    console.error(`Building first: ${reason}.`);
    const build = spawnSync('npm', ['run', 'build'], {
      cwd: ROOT,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  // `npm start` and `npm test` stop here, with one line, on a Node that cannot run the service.
  const { requireSupportedRuntime } = await import(pathToFileURL(join(ROOT, 'dist', 'runtime.js')).href);
  requireSupportedRuntime();
}
