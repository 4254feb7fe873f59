import type { ApiRoute } from '../routing';
import { accessControlRoutes } from './access-control';
import { alertSettingsRoutes } from './alert-settings';
import { comfortSettingsRoutes } from './comfort-settings';
import { createAndMoveRoutes } from './create-and-move';
import { scheduleRoutes } from './schedule';
import { settingsRoutes } from './settings';
import { statusRoutes } from './status';

/**
 * The version 2 API, one module per resource. The first route that matches wins, so the bulk
 * `PATCH /settings` (in settingsRoutes) stands before the move's `PATCH /{thermostatId}`.
 */
export const v2Routes: ApiRoute[] = [
  ...settingsRoutes,
  ...statusRoutes,
  ...scheduleRoutes,
  ...comfortSettingsRoutes,
  ...accessControlRoutes,
  ...alertSettingsRoutes,
  ...createAndMoveRoutes,
];
