import { execFile, execFileSync } from 'node:child_process';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isSupportedNode, unsupportedRuntimeMessage, UNSUPPORTED_RUNTIME_EXIT_CODE } from '../../src/runtime.js';

// The service runs on Node 22.13+ or 24+. npm scripts and npx use the Node 24 that `npm ci`
// installs into node_modules/.bin; any entry point started by an older Node (the server, the
// CLI, `npm start` and `npm test` through scripts/ensure-build.mjs) stops at once with one line
// naming the versions needed and how to get them, exit code 78, never a module error.

const exec = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
type Failure = { code?: number; stdout: string; stderr: string };

describe('the runtime check', () => {
  it('accepts Node 22 from 22.13 and 24 or newer, and refuses 20, 22.12 and 23', () => {
    for (const version of ['v22.13.0', 'v22.23.1', 'v24.0.0', 'v24.21.0', 'v26.1.0'])
      expect(isSupportedNode(version)).toBe(true);
    for (const version of ['v20.20.2', 'v18.20.0', 'v22.12.0', 'v23.11.0', 'garbage'])
      expect(isSupportedNode(version)).toBe(false);
  });

  it('names the versions needed, the one found and how to get one, in a single line', () => {
    const message = unsupportedRuntimeMessage('v20.20.2', '/usr/bin/node');
    expect(message).not.toBeNull();
    expect(message).not.toContain('\n');
    expect(message).toContain('Node.js 22.13 or newer, or 24 or newer');
    expect(message).toContain('v20.20.2 (/usr/bin/node)');
    expect(message).toContain('npm ci');
    expect(unsupportedRuntimeMessage('v24.21.0', '/x/node')).toBeNull();
  });

  it('stops a process with exit code 78 and that one line on stderr', async () => {
    const script = `Object.defineProperty(process, 'version', { value: 'v20.20.2' });
      const { requireSupportedRuntime } = await import(${JSON.stringify(join(ROOT, 'dist', 'runtime.js'))});
      requireSupportedRuntime();
      console.log('still running');`;
    const failure: Failure = await exec(process.execPath, ['--input-type=module', '-e', script]).then(
      (r) => ({ code: 0, ...r }),
      (e: Failure) => e,
    );
    expect(failure.code).toBe(UNSUPPORTED_RUNTIME_EXIT_CODE);
    expect(failure.stdout).toBe('');
    expect(failure.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(failure.stderr).toMatch(
      /^Invoicing API needs Node\.js 22\.13 or newer, or 24 or newer; this is Node\.js v20\.20\.2/,
    );
  });
});

/** The first `node` on PATH outside any node_modules/.bin: the machine's own, as a user types it. */
function machineNode(): { path: string; version: string } | null {
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && !dir.includes(join('node_modules', '.bin')))
    .join(delimiter);
  try {
    const found = execFileSync('sh', ['-c', 'command -v node'], { env: { PATH: path }, encoding: 'utf8' }).trim();
    return { path: found, version: execFileSync(found, ['--version'], { encoding: 'utf8' }).trim() };
  } catch {
    return null;
  }
}

describe("the entry points on the machine's own node", () => {
  const machine = machineNode();
  // What the machine has decides which answer is right, and both are asserted: an old node must
  // be stopped by every entry point, a supported one must simply run the CLI.
  const entries = [
    ['the admin CLI', ['bin/invoicing.js', '--help']],
    ['the server', ['dist/server.js']],
    ['npm start and npm test (scripts/ensure-build.mjs)', ['scripts/ensure-build.mjs']],
  ] as const;

  it('finds a node outside node_modules, as the README assumes', () => {
    expect(machine?.version).toMatch(/^v\d+\.\d+\.\d+$/);
  });

  for (const [name, args] of entries) {
    it(`stops ${name} with one line and exit code 78 when that node is too old, and otherwise lets it run`, async () => {
      if (machine === null) throw new Error('no node outside node_modules on PATH');
      const env = { ...process.env, DATABASE_URL: 'sqlite:/nonexistent-dir/never.db', PORT: 'not-a-port' };
      const result: Failure = await exec(machine.path, [...args], { cwd: ROOT, env, timeout: 20_000 }).then(
        (r) => ({ code: 0, ...r }),
        (e: Failure) => e,
      );
      if (!isSupportedNode(machine.version)) {
        expect(result.code).toBe(UNSUPPORTED_RUNTIME_EXIT_CODE);
        expect(result.stderr.trimEnd().split('\n')).toEqual([unsupportedRuntimeMessage(machine.version, machine.path)]);
      } else if (name === 'the admin CLI') {
        expect(result.code).toBe(0);
        expect(result.stdout).toContain('invoicing: the admin CLI');
      } else {
        // A supported node gets past the check: whatever it says next is not the runtime line.
        expect(result.stderr).not.toContain('Invoicing API needs Node.js');
      }
    });
  }
});
