// The page side of the fault-injection test (bundled by fault-injection.test.ts): the same sender as in Node,
// driven from the test through a few globals.
import { startFaultRun, type FaultRun, type FaultRunOptions } from './fault-injection-run.js';

let run: FaultRun | undefined;
const current = (): FaultRun => {
  if (run === undefined) throw new Error('faultRun has not been called');
  return run;
};

Object.assign(window, {
  faultRun: async (options: FaultRunOptions) => {
    run = await startFaultRun(options);
  },
  faultSend: () => current().send(),
  faultLeft: () => current().left(),
  faultFlush: () => current().flush(),
  faultClose: () => current().close(),
});
