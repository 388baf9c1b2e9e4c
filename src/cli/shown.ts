/**
 * What a command prints or writes of a capture: its secrets redacted (protocol/redact.ts) unless the user asked to
 * keep them (`--no-redact`, said on stderr), and, for text, every string made inert (protocol/inert.ts: no terminal
 * escape, carriage return, newline inside a field, line separator or bidi control of a capture reaches the terminal).
 * The verdict is judged on the capture as it came; only what is shown of it passes through here.
 */
import { inertValue } from '../protocol/inert.ts';
import { redactValue } from '../protocol/redact.ts';

export interface Shown {
  /** Redact secrets (the default). */
  redact: boolean;
  /** Text output: make every string inert. */
  text: boolean;
}

/** `value` as the command may show it. */
export function shown<T>(value: T, how: Shown): T {
  const v = how.redact ? (redactValue(value) as T) : value;
  return how.text ? inertValue(v) : v;
}

/** The warning `--no-redact` prints on stderr, once. */
export function warnUnredacted(command: string, where: string, err: (s: string) => void): void {
  err(
    `embed-inspector ${command}: --no-redact: ${where} holds session ids, tokens and other secrets in clear; ` +
      'keep it out of shared logs and version control\n',
  );
}
