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

/** What the commands need of puppeteer-core (not a direct dependency): a page's DevTools session. */
interface CdpSession {
  send(method: string, params?: object): Promise<unknown>;
  detach(): Promise<void>;
}
interface CdpPage {
  url(): string;
  createCDPSession(): Promise<CdpSession>;
}
/** The test session as a command plugin sees it; `browser` is the launcher (`ChromeLauncher.getPage`). */
interface CommandSession {
  id: string;
  browser: { type?: string; getPage?: (sessionId: string) => CdpPage };
}

/**
 * Quota overrides by test session: the DevTools session that set one stays attached until `quota-restore`,
 * as Chromium drops a session's overrides when it detaches.
 */
const quotaOverrides = new Map<string, { cdp: CdpSession; origin: string }>();

const pageOf = (session: CommandSession): CdpPage => {
  const page = session.browser.getPage?.(session.id);
  if (!page) throw new Error(`${session.browser.type ?? 'this browser'} gives no DevTools page`);
  return page;
};

interface CommandArgs {
  id?: string;
  script?: Partial<Omit<DoubleScript, 'decide'>> & { decisions?: Record<string, Decision> };
  kind?: string;
  /** `double-queue`: answers appended to the route's queue (`script.queued` would replace every queue). */
  answers?: ScriptedAnswer[];
  /** `quota-override`: the origin (default: the test page's) and its quota in bytes. */
  origin?: string;
  quotaSize?: number;
  /** `double-stream`: what to do with the double's live-update streams, and the change pushed. */
  action?: 'open' | 'opened' | 'push' | 'end';
  revision?: number;
  etag?: string;
}

/** A decision table for the browser: visitor id → decision (a function cannot cross the wire). */
const decideFrom = decisionTable;

/**
 * The wtr plugin exposing `double-start`, `double-script`, `double-queue`, `double-requests`, `double-stream`, `double-stop`,
 * and, in Chromium, `quota-override` and `quota-restore` (DevTools `Storage.overrideQuotaForOrigin`: a small
 * quota fills for real, so IndexedDB raises its own QuotaExceededError).
 */
export const serverCommandsPlugin = () => ({
  name: 'feature-protocol-double',
  async executeCommand({
    command,
    payload,
    session,
  }: {
    command: string;
    payload?: unknown;
    session: CommandSession;
  }): Promise<unknown> {
    const args = (payload ?? {}) as CommandArgs;
    switch (command) {
      case 'quota-override': {
        if (typeof args.quotaSize !== 'number') throw new Error('quota-override needs a quotaSize');
        const page = pageOf(session);
        const origin = args.origin ?? new URL(page.url()).origin;
        let held = quotaOverrides.get(session.id);
        if (!held) quotaOverrides.set(session.id, (held = { cdp: await page.createCDPSession(), origin }));
        held.origin = origin;
        await held.cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: args.quotaSize });
        return { origin, quotaSize: args.quotaSize };
      }
      case 'quota-restore': {
        const held = quotaOverrides.get(session.id);
        if (!held) return false;
        quotaOverrides.delete(session.id);
        // Without quotaSize the origin gets its own quota back; detaching would drop the override too.
        await held.cdp.send('Storage.overrideQuotaForOrigin', { origin: held.origin });
        await held.cdp.detach();
        return true;
      }
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
      case 'double-stream': {
        const streams = doubles.get(args.id ?? '')?.streams;
        if (!streams) throw new Error(`no double ${args.id}`);
        if (args.action === 'open') return streams.open();
        if (args.action === 'opened') return streams.opened();
        if (args.action === 'push') streams.push(args.revision ?? 0, args.etag);
        else if (args.action === 'end') streams.end();
        return true;
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
