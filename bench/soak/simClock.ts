/**
 * Preloaded (`node --import tsx --import bench/soak/simClock.ts`) into the soak's API processes:
 * their wall clock becomes the soak's accelerated one, SIM_START + (real time since REAL_START) ×
 * SPEED — the clock the workers (bench/soak/worker.ts, `now`) and the Graph simulator keep. The
 * product runs on one clock; with the APIs on the real date (a month after the simulated one) a Run
 * now's reading time and the workers' confirmations would not be comparable (activity.ts compares
 * them), and the soak would count its own clock skew. Timers are not touched (they use a
 * monotonic clock); only `Date.now()`, `new Date()` and `Date()` read the simulated time.
 *
 * Environment: SIM_START (ISO), REAL_START (ms), SPEED.
 */
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);
const simStart = new RealDate(process.env.SIM_START ?? '').getTime();
const realStart = Number(process.env.REAL_START);
const speed = Number(process.env.SPEED);
if (!Number.isFinite(simStart) || !Number.isFinite(realStart) || !(speed > 0))
  throw new Error('simClock: SIM_START, REAL_START and SPEED must be set');

const simNow = () => Math.floor(simStart + (realNow() - realStart) * speed);

function SimDate(this: unknown, ...args: unknown[]): unknown {
  if (!new.target) return new RealDate(simNow()).toString();
  if (args.length === 0) return new RealDate(simNow());
  return new (RealDate as unknown as new (...a: unknown[]) => Date)(...args);
}
SimDate.prototype = RealDate.prototype;
Object.setPrototypeOf(SimDate, RealDate); // Date.parse, Date.UTC
(SimDate as unknown as { now: () => number }).now = simNow;
globalThis.Date = SimDate as unknown as DateConstructor;
