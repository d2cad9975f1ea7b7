// Server commands for browser tests (`executeServerCommand` from @web/test-runner-commands): they start and
// script protocol doubles in the Node process, so browser tests talk to a real server on 127.0.0.1.
import type { Decision } from '../../src/protocol/index.js';
import {
  decisionTable,
  startProtocolDouble,
  type DoubleScript,
  type ProtocolDouble,
  type ScriptedAnswer,
} from './protocol-double.js';

const doubles = new Map<string, ProtocolDouble>();
let next = 0;

interface CommandArgs {
  id?: string;
  script?: Partial<Omit<DoubleScript, 'decide'>> & { decisions?: Record<string, Decision> };
  kind?: string;
  /** `double-queue`: answers appended to the route's queue (`script.queued` would replace every queue). */
  answers?: ScriptedAnswer[];
}

/** A decision table for the browser: visitor id → decision (a function cannot cross the wire). */
const decideFrom = decisionTable;

/** The wtr plugin exposing `double-start`, `double-script`, `double-queue`, `double-requests`, `double-stop`. */
export const serverCommandsPlugin = () => ({
  name: 'feature-protocol-double',
  async executeCommand({ command, payload }: { command: string; payload?: unknown }): Promise<unknown> {
    const args = (payload ?? {}) as CommandArgs;
    switch (command) {
      case 'double-start': {
        const { decisions, ...rest } = args.script ?? {};
        const double = await startProtocolDouble({
          ...rest,
          ...(decisions ? { decide: decideFrom(decisions) } : {}),
        });
        const id = String(++next);
        doubles.set(id, double);
        return { id, url: double.url };
      }
      case 'double-script': {
        const double = doubles.get(args.id ?? '');
        if (!double) throw new Error(`no double ${args.id}`);
        const { decisions, ...rest } = args.script ?? {};
        Object.assign(double.script, rest);
        if (decisions) double.script.decide = decideFrom(decisions);
        return true;
      }
      case 'double-queue': {
        const double = doubles.get(args.id ?? '');
        if (!double) throw new Error(`no double ${args.id}`);
        const kind = args.kind ?? 'decision';
        double.script.queued[kind] = [...(double.script.queued[kind] ?? []), ...(args.answers ?? [])];
        return true;
      }
      case 'double-requests': {
        const double = doubles.get(args.id ?? '');
        if (!double) throw new Error(`no double ${args.id}`);
        return args.kind ? double.requestsTo(args.kind) : double.requests;
      }
      case 'double-stop': {
        await doubles.get(args.id ?? '')?.close();
        doubles.delete(args.id ?? '');
        return true;
      }
      default:
        return undefined;
    }
  },
});
