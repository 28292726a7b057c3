import type { Difference } from './reference-conformance';

/**
 * A difference from the public reference that this service makes on purpose (README:
 * "Deviations from the public reference" says the same, for readers). Every other difference
 * an API test meets fails that test.
 */
export interface Deviation {
  /** The reference operation, e.g. `GET /customers/{customerId}`; `*` for every operation. */
  operation: string;
  /** Only responses of this status; every status when absent. */
  status?: number;
  /** The reference rule that is not followed (Difference.schemaPath). */
  schemaPath: string;
  /** Only these offending values (e.g. one error code), when the deviation is about values. */
  values?: unknown[];
  reason: string;
}

export const REFERENCE_DEVIATIONS: Deviation[] = [];

export function deviationFor(difference: Difference, deviations: readonly Deviation[] = REFERENCE_DEVIATIONS): Deviation | undefined {
  return deviations.find(
    (d) =>
      (d.operation === '*' || d.operation === difference.operation) &&
      (d.status === undefined || d.status === difference.status) &&
      d.schemaPath === difference.schemaPath &&
      (d.values === undefined || d.values.includes(difference.value)),
  );
}
