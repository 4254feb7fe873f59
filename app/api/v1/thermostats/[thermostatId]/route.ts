import { readThermostatOperation } from '@/lib/api/fleet-operations';
import { apiOperation } from '@/lib/api/http';

export const GET = apiOperation('read', readThermostatOperation);
