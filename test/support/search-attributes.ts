import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { ALL_SEARCH_ATTRIBUTES } from '../../src/temporal/search-attributes';

/** The Java time-skipping server starts without custom search attributes: register ours. */
export async function registerSearchAttributes(connection: Connection, namespace = 'default'): Promise<void> {
  const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(ALL_SEARCH_ATTRIBUTES.map((k) => [k.name, keyword])),
  });
}
