import { apiOperation } from '@/lib/api/http';
import { applyRunOperation } from '@/lib/api/template-operations';

export const POST = apiOperation('write_thermostats', applyRunOperation);
