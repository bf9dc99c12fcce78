/**
 * Every response the integration tests receive from an operation is checked against the service's
 * own OpenAPI document: its status must be documented for that path, and its body must match the
 * documented schema with no undocumented field. A mismatch fails the test that made the request.
 */
import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export type ResponseCheck = (method: string, pathName: string, status: number, body: unknown, text: string) => void;

/** The schema, with every object closed to undocumented fields: strict out means nothing extra is sent. */
export function closed(schema: any): any {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: any = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === 'examples' ? value : closed(value)]),
  );
  if (copy.type === 'object' && copy.properties && copy.additionalProperties === undefined)
    copy.additionalProperties = false;
  return copy;
}

export function openApiChecker(document: any): ResponseCheck {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  const validators = new Map<string, ValidateFunction>();
  const resolve = (schema: any): any => {
    const name = /^#\/components\/schemas\/(.+)$/.exec(schema?.$ref ?? '')?.[1];
    return name ? document.components.schemas[name] : schema;
  };
  return (method, pathName, status, body, text) => {
    const path = pathName.split('?')[0]!;
    const operation = method === 'POST' ? document.paths[path]?.post : undefined;
    // Only the documented operations; unknown paths (ROUTE_NOT_FOUND) and the 431 parser answer are not operations.
    if (!operation || status === 431) return;
    const key = `${path} ${status}`;
    let validate = validators.get(key);
    if (!validate) {
      const response = operation.responses[String(status)];
      assert.ok(
        response,
        `${path} answered ${status}, which the OpenAPI document does not list: ${text.slice(0, 300)}`,
      );
      validate = ajv.compile(closed(resolve(response.content['application/json'].schema)));
      validators.set(key, validate);
    }
    assert.ok(
      validate(body),
      `${path} ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`,
    );
  };
}
