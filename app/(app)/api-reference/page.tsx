import type { Metadata } from 'next';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { PageHeader } from '@/components/ui/page-header';
import { openApiDocument } from '@/lib/api/openapi';
import { requireMember } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'API reference' };

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  items?: Schema;
  format?: string;
};
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    schema?: Schema;
    description?: string;
  }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
};

/** A description's `code` spans as code, the rest as text (the document writes Markdown). */
function Described({ text }: { text: string }) {
  return text.split(/(`[^`]+`)/).map((part, index) =>
    part.startsWith('`') && part.endsWith('`') ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order.
      <code key={index}>{part.slice(1, -1)}</code>
    ) : (
      part
    ),
  );
}

const refName = (schema: Schema | undefined) => schema?.$ref?.split('/').at(-1) ?? null;

/** A schema's type in a few words: its component's name, or its type (and enum). */
function typeOf(schema: Schema | undefined): string {
  if (!schema) return '';
  const named = refName(schema);
  if (named) return named;
  if (schema.enum) return schema.enum.map(String).join(' | ');
  if (schema.anyOf || schema.oneOf)
    return (schema.anyOf ?? schema.oneOf ?? []).map(typeOf).join(' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  if (type === 'array') return `array of ${typeOf(schema.items)}`;
  return schema.format ? `${type} (${schema.format})` : type;
}

/**
 * The API's reference, drawn from the same OpenAPI document `/api/v1/openapi.json` serves: each
 * operation with its parameters, body and answers, and each shape's fields.
 */
export default async function ApiReferencePage() {
  await requireMember();
  const document = openApiDocument() as unknown as {
    info: { description?: string };
    paths: Record<string, Record<string, Operation>>;
    webhooks?: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };
  // The API's operations, then what Setpoint sends to a webhook endpoint.
  const operations = [
    ...Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        path,
        method,
        operation,
        webhook: false,
      })),
    ),
    ...Object.entries(document.webhooks ?? {}).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        path,
        method,
        operation,
        webhook: true,
      })),
    ),
  ];
  return (
    <div className="grid gap-6">
      <PageHeader title="API reference">
        {document.info.description} Send a key from{' '}
        <Link href="/api-keys" className="underline">
          API keys
        </Link>{' '}
        as <code>Authorization: Bearer spk_…</code>. The machine-readable document:{' '}
        <a href="/api/v1/openapi.json" className="underline">
          /api/v1/openapi.json
        </a>
        .
      </PageHeader>
      {operations.map(({ path, method, operation, webhook }) => {
        const body = operation.requestBody?.content['application/json']?.schema;
        return (
          <Card key={`${webhook ? 'webhook' : method} ${path}`} className="grid gap-3">
            <h2 className="text-lg font-semibold">{operation.summary}</h2>
            <p className="break-all font-mono text-sm">
              {webhook
                ? `Webhook ${path}: ${method.toUpperCase()} to your endpoint`
                : `${method.toUpperCase()} ${path}`}
            </p>
            {operation.description ? (
              <p className="text-sm">
                <Described text={operation.description} />
              </p>
            ) : null}
            {operation.parameters?.length ? (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                {operation.parameters.map((parameter) => (
                  <div key={`${parameter.in}-${parameter.name}`} className="contents">
                    <dt className="font-mono">
                      {parameter.name}
                      {parameter.required ? '' : '?'}
                    </dt>
                    <dd className="text-muted">
                      {parameter.in}, {typeOf(parameter.schema)}
                      {parameter.description ? (
                        <>
                          : <Described text={parameter.description} />
                        </>
                      ) : null}
                    </dd>
                  </div>
                ))}
              </dl>
            ) : null}
            {body ? <p className="text-sm">Body: {typeOf(body)} (JSON)</p> : null}
            <ul className="grid gap-1 text-sm">
              {Object.entries(operation.responses).map(([status, response]) => (
                <li key={status}>
                  <span className="font-mono">{status}</span>{' '}
                  <Described text={response.description} />{' '}
                  <span className="text-muted">
                    {Object.entries(response.content ?? {})
                      .map(([type, media]) => `${typeOf(media.schema)} (${type})`)
                      .join(', ')}
                  </span>
                </li>
              ))}
            </ul>
          </Card>
        );
      })}
      <section aria-labelledby="shapes-heading" className="grid gap-3">
        <h2 id="shapes-heading" className="text-lg font-semibold">
          Shapes
        </h2>
        {Object.entries(document.components.schemas).map(([name, schema]) => (
          <Card key={name} className="grid gap-2">
            <h3 id={name} className="font-semibold">
              {name}
            </h3>
            {schema.description ? <p className="text-sm">{schema.description}</p> : null}
            {schema.properties ? (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                {Object.entries(schema.properties).map(([field, property]) => (
                  <div key={field} className="contents">
                    <dt className="font-mono">
                      {field}
                      {schema.required?.includes(field) ? '' : '?'}
                    </dt>
                    <dd className="text-muted">
                      {typeOf(property)}
                      {property.description ? (
                        <>
                          : <Described text={property.description} />
                        </>
                      ) : null}
                    </dd>
                  </div>
                ))}
              </dl>
            ) : (
              <p className="text-sm text-muted">{typeOf(schema)}</p>
            )}
          </Card>
        ))}
      </section>
    </div>
  );
}
