import { apiOperation } from '@/lib/api/http';
import { planTemplateRunOperation } from '@/lib/api/template-operations';

export const POST = apiOperation('write_thermostats', planTemplateRunOperation);
