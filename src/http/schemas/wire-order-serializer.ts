import fastJson from 'fast-json-stringify';

type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: string[] } & Record<string, unknown>;

/**
 * fast-json-stringify writes an object's required fields before the others. Where a field sent
 * only sometimes comes before required ones (AirOrderRetrieve's Order, before Response), that would
 * change the order of the keys on the wire. The serialiser is therefore compiled with `required`
 * kept to the fields that lead the envelope; the document keeps every required field.
 */
function requiredInWireOrder(envelope: Schema): Schema {
  const keys = Object.keys(envelope.properties ?? {});
  const required = new Set(envelope.required ?? []);
  const firstOptional = keys.findIndex((key) => !required.has(key));
  return { ...envelope, required: firstOptional === -1 ? keys : keys.slice(0, firstOptional) };
}

/** The route's serialiser compiler: the envelope under the response's root key in wire order. */
export function wireOrderSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  const response = schema as Schema;
  const properties = Object.fromEntries(
    Object.entries(response.properties ?? {}).map(([root, envelope]) => [root, requiredInWireOrder(envelope)]),
  );
  return fastJson({ ...response, properties } as never) as (data: unknown) => string;
}
