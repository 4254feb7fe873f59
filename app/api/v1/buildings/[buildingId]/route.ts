import { apiOperation } from '@/lib/api/http';
import { readBuildingOperation } from '@/lib/api/operations';

export const GET = apiOperation('read', readBuildingOperation);
