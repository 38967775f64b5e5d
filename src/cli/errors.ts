// How the CLI fails: a usage error (exit 2) points to the help of its group, a command error
// (exit 1) says what went wrong. Neither ever prints an API key, wherever one was typed.

/** Wrong usage: missing or unknown options, arguments, commands. Exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The group whose help to point to (null: the top-level help). */
    readonly group: string | null = null,
  ) {
    super(message);
  }
}

/** The command was understood but cannot be done (unknown id, refused change). Exit code 1. */
export class CommandError extends Error {}

const FULL_KEY = /inv_(?:live|test)_[0-9A-Za-z_]*/g;

export const SECRET_REFUSED =
  'That looks like a full API key, not a key id; key ids look like key_…. The key was not printed.';

export function looksLikeFullKey(value: string): boolean {
  return /inv_(?:live|test)_/.test(value);
}

/** The text with anything shaped like an API key replaced, for error messages that quote input. */
export function withoutSecrets(text: string): string {
  return text.replace(FULL_KEY, '[an API key, not printed]');
}

export function helpPointer(group: string | null): string {
  return `Run "invoicing${group ? ` ${group}` : ''} --help" for usage.`;
}

/** One line from a node:util parseArgs error, without its quoting. */
export function parseErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const option = /'(-{1,2}[^' <]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `Unknown option ${option}.`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return message.includes('does not take an argument')
      ? `Option ${option} takes no value.`
      : `Option ${option} needs a value.`;
  }
  return message.split('\n')[0]!.replace(/'/g, '');
}
