// Which Node.js can run the service, checked first by every entry point (the server, the CLI,
// `npm start`, `npm test`). It imports nothing, so an old Node reaches this check before it
// meets a module it lacks (node:sqlite), and stops with one line instead of a stack.

/** The lines the service runs on: 22 from 22.13 (node:sqlite without a flag) and 24 or newer. */
export const SUPPORTED_RUNTIMES = 'Node.js 22.13 or newer, or 24 or newer';

/** Exit code of a runtime that cannot run the service (EX_CONFIG, as for a bad setting). */
export const UNSUPPORTED_RUNTIME_EXIT_CODE = 78;

export function isSupportedNode(version: string): boolean {
  const match = /^v?(\d+)\.(\d+)\./.exec(version);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  if (major === 22) return minor >= 13;
  return major >= 24;
}

/** The one line an unsupported runtime prints; null when this one will do. */
export function unsupportedRuntimeMessage(version: string, execPath: string): string | null {
  if (isSupportedNode(version)) return null;
  return (
    `Invoicing API needs ${SUPPORTED_RUNTIMES}; this is Node.js ${version} (${execPath}). ` +
    'Run it through npm (npm start, npm test, npx invoicing) after npm ci, which installs Node 24 into ' +
    'node_modules/.bin, or put Node 24 (https://nodejs.org) first on PATH.'
  );
}

/** Stops the process with that line and exit code 78 when this Node cannot run the service. */
export function requireSupportedRuntime(): void {
  const message = unsupportedRuntimeMessage(process.version, process.execPath);
  if (message === null) return;
  process.stderr.write(`${message}\n`);
  process.exit(UNSUPPORTED_RUNTIME_EXIT_CODE);
}
