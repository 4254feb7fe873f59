/** Every version 2 thermostat endpoint lives under this path. */
export const THERMOSTATS = '/api/v2/thermostats';
