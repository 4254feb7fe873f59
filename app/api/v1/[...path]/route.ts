/**
 * Any other address under `/api/v1`: a 404 in the API's own shape (problem details), not an
 * HTML page, whatever the method.
 */
function notAnOperation(): Response {
  return new Response(
    JSON.stringify({
      type: '/api/v1/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'No such operation: the operations are listed in /api/v1/openapi.json.',
    }),
    {
      status: 404,
      headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
    },
  );
}

export const GET = notAnOperation;
export const POST = notAnOperation;
export const PATCH = notAnOperation;
export const PUT = notAnOperation;
export const DELETE = notAnOperation;
