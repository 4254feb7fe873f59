import { openApiDocument } from '@/lib/api/openapi';

/** The API's OpenAPI 3.1 document, generated from its schemas; public, as API references are. */
export function GET() {
  return Response.json(openApiDocument(), { headers: { 'cache-control': 'no-cache' } });
}
