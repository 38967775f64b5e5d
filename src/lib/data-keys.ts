import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../config.js';
import { DATA_KEY_BYTES } from './sealer.js';

/** Where the embedded (SQLite) default keeps its data key when DATA_ENCRYPTION_KEY is not set. */
export function dataKeyFileOf(sqlitePath: string): string {
  return `${sqlitePath}.key`;
}

function readKeyFile(path: string): Buffer {
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length !== DATA_KEY_BYTES)
    throw new ConfigError(`The data key file ${path} does not hold ${DATA_KEY_BYTES} bytes in base64`);
  return key;
}

/**
 * The data keys, newest first. DATA_ENCRYPTION_KEY when set. Otherwise, on the embedded SQLite
 * default, a key file beside the database (made on first start, readable by its owner only), so
 * that one command still starts the service; with PostgreSQL, whose instances must share the key,
 * it has to be set.
 */
export function resolveDataKeys(configured: readonly Buffer[], databaseUrl: string): Buffer[] {
  if (configured.length > 0) return [...configured];
  if (!databaseUrl.startsWith('sqlite:')) {
    throw new ConfigError(
      'DATA_ENCRYPTION_KEY must be set with PostgreSQL (base64 of 32 random bytes, e.g. `openssl rand -base64 32`), the same on every instance',
    );
  }
  const path = databaseUrl.slice('sqlite:'.length);
  if (path === ':memory:') return [randomBytes(DATA_KEY_BYTES)];
  const file = dataKeyFileOf(path);
  try {
    return [readKeyFile(file)];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(DATA_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return [readKeyFile(file)];
}
