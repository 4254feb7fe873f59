import { apiOperation } from '@/lib/api/http';
import { listBuildingsOperation } from '@/lib/api/operations';

export const GET = apiOperation('read', listBuildingsOperation);
