import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks an API answer against the served OpenAPI document: the operation must document the
 * status and content type, and the body must match its schema (JSON Schema 2020-12, as OpenAPI
 * 3.1 writes schemas).
 */
export function answerChecker(document: { paths: Record<string, Record<string, unknown>> }) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...document, $id: 'api' });
  const pointer = (...parts: string[]) =>
    parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  return (input: {
    path: string;
    method: string;
    status: number;
    contentType: string | null;
    body: unknown;
  }) => {
    const operation = document.paths[input.path]?.[input.method] as
      | { responses: Record<string, { content?: Record<string, unknown> }> }
      | undefined;
    if (!operation) throw new Error(`${input.method} ${input.path} is not in the document`);
    const response = operation.responses[String(input.status)];
    if (!response)
      throw new Error(`${input.method} ${input.path} does not document ${input.status}`);
    const type = (input.contentType ?? '').split(';')[0]?.trim() ?? '';
    if (!response.content?.[type]) {
      throw new Error(`${input.method} ${input.path} ${input.status} does not document ${type}`);
    }
    const validate = ajv.compile({
      $ref: `api#/${pointer('paths', input.path, input.method, 'responses', String(input.status), 'content', type, 'schema')}`,
    });
    if (!validate(input.body)) {
      throw new Error(
        `${input.method} ${input.path} ${input.status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(input.body).slice(0, 400)}`,
      );
    }
  };
}
