import { VASPS, type VaspEntry } from './data/vasps';

export type { VaspEntry } from './data/vasps';

const byName = new Map(VASPS.map((v) => [v.vaspName.toLowerCase(), v]));

/** The VASP whose canonical `vaspName` is `vaspName`, ignoring case only; undefined when there is none. */
export function findVasp(vaspName: string): VaspEntry | undefined {
  return byName.get(vaspName.toLowerCase());
}

/** Every VASP of the directory. */
export function vasps(): readonly VaspEntry[] {
  return VASPS;
}

/** The order of GET /vasps: by name regardless of case. Unique. */
export function vaspKey(v: VaspEntry): string {
  return v.vaspName.toLowerCase();
}
