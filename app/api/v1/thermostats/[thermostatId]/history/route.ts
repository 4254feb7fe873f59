import { thermostatHistoryOperation } from '@/lib/api/fleet-operations';
import { apiOperation } from '@/lib/api/http';

export const GET = apiOperation('read', thermostatHistoryOperation);
