import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Before any schema is declared: every schema may carry its OpenAPI description (.openapi()),
// whether the API declares it or a schema module the API and the services share.
extendZodWithOpenApi(z);

export { z };
