/**
 * The tables module: the floorplan (tables, blocks, combinations, floors with their canvas, seating
 * areas), price lists and smart-table settings, and table occupancy for the booking engine. Other
 * modules refer to its tables, areas and price lists through the reference registry.
 */
import type { Db } from '../../db/connect.js';
import type { Audit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { CopyScopes } from '../../platform/copy-scopes.js';
import type { References } from '../../platform/references.js';
import { createAreasService } from './areas.service.js';
import { createBlocksService } from './blocks.service.js';
import { createCombosService } from './combos.service.js';
import { createFloorsService } from './floors.service.js';
import { createPricingService } from './pricing.service.js';
import type { BookedTables } from './occupancy.js';
import { createTablesCopyScope } from './tables.copy.js';
import { registerTablesReferences } from './tables.references.js';
import type { TablesServices } from './tables.routes.js';
import { createTablesService } from './tables.service.js';

export { tablesRoutes, type TablesServices } from './tables.routes.js';
export { blocksBetween, floorplanRecords, pricelistPrices, type FloorplanRecords, type TableRecord } from './tables.read.js';
export { claimReassignRun, reassignSchedules } from './smart-table-runs.js';

export type { BookedTables } from './occupancy.js';

export function createTablesModule(deps: {
  db: Db;
  clock: Clock;
  references: References;
  copyScopes: CopyScopes;
  booked: BookedTables;
  audit: Audit;
}): TablesServices {
  registerTablesReferences(deps.references);
  deps.copyScopes.register(createTablesCopyScope(deps.references, deps.booked));
  return {
    tables: createTablesService(deps),
    blocks: createBlocksService(deps),
    combos: createCombosService(deps),
    areas: createAreasService(deps),
    floors: createFloorsService(deps),
    pricing: createPricingService(deps),
  };
}
