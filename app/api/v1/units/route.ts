import { apiOperation } from '@/lib/api/http';
import { listUnitsOperation } from '@/lib/api/operations';

export const GET = apiOperation('read', listUnitsOperation);
