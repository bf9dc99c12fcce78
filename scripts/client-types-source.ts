/** The client's wire types from the service's OpenAPI document, as openapi-typescript writes them. */
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

/** Relative to the repository's root. */
export const CLIENT_TYPES_FILE = path.join('packages', 'client', 'src', 'generated', 'openapi.ts');

const HEADER = `// Generated from the airorder service's OpenAPI document (GET /openapi.json) by openapi-typescript:
// \`npm run client:types\` in the repository. Do not edit; packages/client/test/wire-types.test.ts
// fails when this file differs from what the service serves.

`;

export async function clientTypesSource(document: unknown): Promise<string> {
  // A field with a default is optional in a request: the service fills it in.
  return HEADER + astToString(await openapiTS(document as never, { defaultNonNullable: false }));
}
