// How the server's logs look: one JSON object a line for machines (files, pipes, log collectors), or one
// readable line an event on a terminal. The readable lines are made from pino's JSON after pino has redacted
// it, so a secret the JSON hides stays hidden here too; no dependency (pino-pretty pulls several packages).
import { pino, type DestinationStream } from 'pino';
import { InputError } from '../errors.js';

/** `json`: pino's lines as they are; `pretty`: one readable line an event. */
export type LogFormat = 'json' | 'pretty';

/**
 * The format LOG_FORMAT asks for; without it, `pretty`, wherever the logs go (issue 35: a run whose output went
 * to a file mixed JSON log lines with the plain lines the commands print). A log collector asks for `json`.
 */
export const chooseLogFormat = (value: string | undefined): LogFormat => {
  if (value === undefined || value === '') return 'pretty';
  if (value === 'json' || value === 'pretty') return value;
  throw new InputError(
    `LOG_FORMAT=${value} is invalid: use pretty (the default: one readable line an event) or json (one JSON object a line, for log collectors).`,
  );
};

const LEVELS: Readonly<Record<number, { name: string; color: string }>> = {
  10: { name: 'TRACE', color: '90' },
  20: { name: 'DEBUG', color: '36' },
  30: { name: 'INFO', color: '32' },
  40: { name: 'WARN', color: '33' },
  50: { name: 'ERROR', color: '31' },
  60: { name: 'FATAL', color: '35' },
};

// Said by every line, so they tell a reader nothing; the time, level and message have their own places.
const OMITTED = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'service', 'err']);

const paint = (color: boolean, code: string, text: string): string =>
  color ? `\u001b[${code}m${text}\u001b[0m` : text;

const clock = (time: unknown): string => {
  const date = new Date(typeof time === 'number' ? time : Date.now());
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
};

const fieldValue = (value: unknown): string => {
  if (typeof value === 'string') return /^[^\s"]+$/.test(value) ? value : JSON.stringify(value);
  // Durations come as 10.704018999; a reader needs 10.7 (the JSON format keeps every digit).
  if (typeof value === 'number' && !Number.isInteger(value)) return String(Number(value.toFixed(2)));
  return JSON.stringify(value);
};

/**
 * One pino JSON line as `HH:MM:SS.mmm LEVEL message key=value …`; an error adds its message, and at ERROR and
 * above its stack on indented lines below. A line that is not JSON is returned as it is.
 */
export const formatLogLine = (line: string, options: { color: boolean }): string => {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return line.trimEnd();
    record = parsed as Record<string, unknown>;
  } catch {
    return line.trimEnd();
  }
  const levelNumber = typeof record.level === 'number' ? record.level : 30;
  const level = LEVELS[levelNumber] ?? { name: String(record.level), color: '0' };
  const fields = Object.entries(record)
    .filter(([key, value]) => !OMITTED.has(key) && value !== undefined)
    .map(([key, value]) => `${paint(options.color, '2', `${key}=`)}${fieldValue(value)}`);
  const err = record.err as { message?: unknown; stack?: unknown } | undefined;
  const errorText = typeof err?.message === 'string' && err.message !== '' ? `: ${err.message}` : '';
  const head = [
    paint(options.color, '2', clock(record.time)),
    paint(options.color, level.color, level.name.padEnd(5)),
    `${typeof record.msg === 'string' ? record.msg : ''}${errorText}`,
    ...fields,
  ].join(' ');
  if (levelNumber < 50 || typeof err?.stack !== 'string') return head;
  const frames = err.stack
    .split('\n')
    .slice(1)
    .map((frame) => `    ${frame.trim()}`);
  return [head, ...frames].join('\n');
};

/** A pino destination that writes each JSON line it gets to `out` as a readable line. */
export const prettyDestination = (
  out: { write: (text: string) => unknown },
  color: boolean,
): DestinationStream => ({
  write: (chunk: string): void => {
    for (const line of chunk.split('\n')) if (line !== '') out.write(`${formatLogLine(line, { color })}\n`);
  },
});

/**
 * Where the logger writes: file descriptor 1 or 2 (stdout, or stderr when stdout carries --json output), as
 * pino's JSON or as readable lines, synchronously so the last lines before an exit are not lost.
 */
export const logDestination = (fd: 1 | 2, format: LogFormat, color: boolean): DestinationStream => {
  const out = pino.destination({ dest: fd, sync: true });
  return format === 'json' ? out : prettyDestination(out, color);
};

/** Colours only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export const useColor = (isTerminal: boolean, env: NodeJS.ProcessEnv = process.env): boolean =>
  isTerminal && (env.NO_COLOR === undefined || env.NO_COLOR === '') && env.TERM !== 'dumb';
