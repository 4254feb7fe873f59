import { apiOperation } from '@/lib/api/http';
import { readUnitOperation } from '@/lib/api/operations';

export const GET = apiOperation('read', readUnitOperation);
