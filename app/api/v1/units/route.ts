import { apiOperation } from '@/lib/api/http';
import { createUnitOperation, listUnitsOperation } from '@/lib/api/operations';

export const GET = apiOperation('read', listUnitsOperation);
export const POST = apiOperation('write_units', createUnitOperation);
