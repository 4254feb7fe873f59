import { apiOperation } from '@/lib/api/http';
import { readUnitOperation, updateUnitOperation } from '@/lib/api/operations';

export const GET = apiOperation('read', readUnitOperation);
export const PATCH = apiOperation('write_units', updateUnitOperation);
