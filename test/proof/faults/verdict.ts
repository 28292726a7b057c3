import type { Check } from '../chaos/verdict';
import { FAULTS, type Fault } from './steps';

/** Each fault injected once, and after it ended its links, the readiness check, answers and deliveries all back. */
export function faultsCheck(faults: Fault[]): Check {
  const missing = FAULTS.filter((name) => !faults.some((f) => f.fault === name));
  const stuck = faults.filter((f) => f.componentBackMs === null || f.answeringMs === null || f.deliveringMs === null);
  const seconds = (ms: number | null) => (ms === null ? '—' : (ms / 1000).toFixed(1));
  return {
    name: 'every network fault injected and recovered',
    ok: missing.length === 0 && stuck.length === 0,
    detail: [
      faults.map((f) => `${f.fault} ${seconds(f.downMs)} s → answering again ${seconds(f.answeringMs)} s after`).join(', '),
      missing.length ? `not injected: ${missing.join(', ')}` : '',
      stuck.length ? `not back within a minute: ${stuck.map((f) => f.fault).join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; '),
  };
}
