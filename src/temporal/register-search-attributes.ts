import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { ALL_SEARCH_ATTRIBUTES } from './search-attributes';

const INDEXED_TYPE = {
  KEYWORD: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  TEXT: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  INT: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT,
  DOUBLE: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  BOOL: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  DATETIME: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  KEYWORD_LIST: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
} as const;

/**
 * Registers the service's custom search attributes on the namespace, adding only those the
 * server does not have yet (so it is safe on every start, from several processes at once).
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const customAttributes = await registered(connection, namespace);
  const missing = ALL_SEARCH_ATTRIBUTES.filter((key) => !(key.name in (customAttributes ?? {})));
  if (missing.length === 0) return [];
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((key) => [key.name, INDEXED_TYPE[key.type]])),
    });
  } catch (err) {
    // Another process registered them between our list and add.
    if (!/already exists/i.test(err instanceof Error ? err.message : String(err))) throw err;
  }
  return missing.map((key) => key.name);
}

/** The names already registered; the Java time-skipping test server cannot list them (none then). */
async function registered(connection: Connection, namespace: string): Promise<Record<string, unknown>> {
  try {
    return (await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};
  } catch (err) {
    if ((err as { code?: number }).code === GRPC_UNIMPLEMENTED) return {};
    throw err;
  }
}

const GRPC_UNIMPLEMENTED = 12;
