import { CONTEXTS_DIR, discover } from '../../contexts/discover';
import { IdempotencyRecord } from '../IdempotencyRecord';

/**
 * Every entity class, for the ORM: the classes each context exports from its
 * `entities/index.ts`, found by convention, plus the kernel's own.
 */
export const entities = [
  IdempotencyRecord,
  ...discover<Record<string, unknown>>(CONTEXTS_DIR, 'entities/index').flatMap(({ module }) =>
    Object.values(module).filter((value) => typeof value === 'function'),
  ),
];
