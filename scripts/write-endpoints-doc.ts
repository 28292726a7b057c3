/**
 * Writes docs/endpoints.md, the list of the API's operations, from the service's own OpenAPI document
 * (`npx tsx scripts/write-endpoints-doc.ts`). test/tooling/docs-links.test.ts fails when it is out of date.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentOperations, endpointsPage, type OpenApiPaths } from '../test/support/docs-links';
import { serviceDocument } from '../test/support/service-document';

const operations = documentOperations(serviceDocument().paths as OpenApiPaths);
writeFileSync(join(__dirname, '..', 'docs', 'endpoints.md'), endpointsPage(operations));
console.log(`docs/endpoints.md: ${operations.length} operations`);
