/**
 * `npm run postman`: writes the Postman collection and environment generated from the OpenAPI
 * document to docs/postman/. Run it after changing a route's schema or the examples, and commit the
 * result (test/integration/openapi.test.ts checks that the files are up to date).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadOpenApiDocument } from './openapi-document.js';
import { POSTMAN_FILES, postmanCollection, postmanEnvironment } from './postman-collection.js';

const document = await loadOpenApiDocument();
fs.mkdirSync(path.dirname(POSTMAN_FILES.collection), { recursive: true });
fs.writeFileSync(POSTMAN_FILES.collection, `${JSON.stringify(postmanCollection(document), null, 2)}\n`);
fs.writeFileSync(POSTMAN_FILES.environment, `${JSON.stringify(postmanEnvironment(document), null, 2)}\n`);
process.stdout.write(`wrote ${POSTMAN_FILES.collection} and ${POSTMAN_FILES.environment}\n`);
