import type { Kill } from './killer';
import type { Check } from './verdict';

/**
 * With API replicas behind a load balancer, a dead replica costs partners nothing but the requests it held: while
 * it was down, the other replicas kept answering (their metrics counted 2xx answers to partners).
 */
export function routedAround(kills: Kill[], apiProcesses: readonly string[]): Check {
  const replicaKills = kills.filter((k) => apiProcesses.includes(k.component));
  const unserved = replicaKills.filter((k) => !k.othersAnswered);
  return {
    name: 'HAProxy routes around a dead API replica',
    ok: replicaKills.length > 0 && unserved.length === 0,
    detail: replicaKills.length
      ? replicaKills
          .map((k) => `${k.component} down ${(k.componentBackMs / 1000).toFixed(1)} s: ${k.othersAnswered ?? 0} partner requests answered by the other replica`)
          .join('; ')
      : 'no API replica was killed',
  };
}
