import { apiOperation } from '@/lib/api/http';
import { unitEventOperation } from '@/lib/api/operations';

export const POST = apiOperation('write_units', unitEventOperation);
