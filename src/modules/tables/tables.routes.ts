/**
 * The tables module owns a venue's floorplan under /api/my-venues/:venueId, gated by the `tables`
 * permission: tables (bulk type and area), blocks, combinations, floors with their canvas, seating
 * areas, smart-table settings and price lists. occupancy.ts is its query seam for the booking engine.
 */
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, errorResponses, SuccessBody, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { AreasService } from './areas.service.js';
import type { BlocksService } from './blocks.service.js';
import type { CombosService } from './combos.service.js';
import type { FloorsService } from './floors.service.js';
import type { PricingService } from './pricing.service.js';
import {
  Area,
  AreaBody,
  AreaCreated,
  Block,
  BlockBody,
  BlockCreated,
  BlockUpdateBody,
  Combo,
  ComboBody,
  ComboCreated,
  Floor,
  FloorBody,
  FloorDetail,
  FloorUpdateBody,
  ItemParams,
  list,
  PriceBody,
  PriceParams,
  Pricelist,
  PricelistBody,
  PricelistUpdateBody,
  SetAreaBody,
  SetTypeBody,
  SmartTables,
  SmartTablesBody,
  SmartTablesSaved,
  Table,
  TableBody,
  TableListQuery,
  TableUpdateBody,
  UnblockBody,
} from './tables.schemas.js';
import type { TablesService } from './tables.service.js';

const base = '/api/my-venues/:venueId';

export interface TablesServices {
  tables: TablesService;
  blocks: BlocksService;
  combos: CombosService;
  areas: AreasService;
  floors: FloorsService;
  pricing: PricingService;
}

export const tablesRoutes: RoutePlugin<TablesServices & { guard: GuardFactory }> = async (
  app,
  { guard, tables, blocks, combos, areas, floors, pricing },
) => {
  const read = guard({ permission: 'tables:read', venueParam: 'venueId' });
  const write = guard({ permission: 'tables:write', venueParam: 'venueId' });
  const common = { tags: ['tables'], security: [{ bearer: [] }] };
  const readErrors = errorResponses(400, 401, 403, 404);
  const writeErrors = errorResponses(400, 401, 403, 404, 409);
  const ok = { success: true } as const;

  // ---- tables ----
  app.get(
    `${base}/tables`,
    {
      schema: {
        summary: "List the venue's tables (optionally blocked/taken at a time)",
        ...common,
        description:
          'With `date` and `time` (venue-local) and optional `duration` (minutes, default the venue default_booking_duration), each row adds `is_blocked` and `is_taken` for that window. ' +
          'The window is `duration` real minutes; on a daylight-saving change day a skipped local time moves forward and a repeated one means its first occurrence.',
        params: VenueParams,
        querystring: TableListQuery,
        response: { 200: list(Table), ...readErrors },
      },
      onRequest: read,
    },
    async (request) => ({ data: await tables.list(venueOf(request), request.query) }),
  );

  // Static /tables/* paths are registered before /tables/:id; Fastify prefers static segments anyway.
  app.get(
    `${base}/tables/blocks`,
    {
      schema: { summary: "List the venue's table blocks", ...common, params: VenueParams, response: { 200: list(Block), ...readErrors } },
      onRequest: read,
    },
    async (request) => ({
      data: await blocks.list(venueOf(request).id),
    }),
  );

  app.post(
    `${base}/tables/block`,
    {
      schema: {
        summary: 'Block tables for a period',
        ...common,
        description:
          '`from`/`to`: `YYYY-MM-DDTHH:MM[:SS]` in venue time (resolved like the table list window on daylight-saving change days) or ISO 8601 with `Z` or an offset; ' +
          'stored and listed as UTC instants. One block per table, `ids` in the order of `table_ids`. Reason defaults to `Venue Reserved`.',
        params: VenueParams,
        body: BlockBody,
        response: { 200: BlockCreated, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, ids: await blocks.create(venueOf(request), request.body) }),
  );

  app.patch(
    `${base}/tables/blocks/:id`,
    {
      schema: {
        summary: 'Update a table block',
        ...common,
        params: ItemParams,
        body: BlockUpdateBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await blocks.update(venueOf(request), request.params.id, request.body);
      return ok;
    },
  );

  app.delete(
    `${base}/tables/blocks/:id`,
    {
      schema: { summary: 'Delete a table block', ...common, params: ItemParams, response: { 200: SuccessBody, ...readErrors } },
      onRequest: write,
    },
    async (request) => {
      await blocks.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );

  app.post(
    `${base}/tables/unblock`,
    {
      schema: {
        summary: 'Clear every block on some tables',
        ...common,
        description: 'Clears every block on these tables.',
        params: VenueParams,
        body: UnblockBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await blocks.unblock(venueOf(request).id, request.body.table_ids);
      return ok;
    },
  );

  app.get(
    `${base}/tables/combos`,
    {
      schema: {
        summary: "List the venue's table combinations",
        ...common,
        params: VenueParams,
        response: { 200: list(Combo), ...readErrors },
      },
      onRequest: read,
    },
    async (request) => ({
      data: await combos.list(venueOf(request).id),
    }),
  );

  app.post(
    `${base}/tables/combos`,
    {
      schema: {
        summary: 'Create a table combination',
        ...common,
        params: VenueParams,
        body: ComboBody,
        response: { 200: ComboCreated, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, ...(await combos.create(venueOf(request).id, request.body)) }),
  );

  app.delete(
    `${base}/tables/combos/:id`,
    {
      schema: { summary: 'Delete a table combination', ...common, params: ItemParams, response: { 200: SuccessBody, ...readErrors } },
      onRequest: write,
    },
    async (request) => {
      await combos.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );

  app.post(
    `${base}/tables/set-type`,
    {
      schema: {
        summary: 'Set the type of several tables',
        ...common,
        params: VenueParams,
        body: SetTypeBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await tables.setType(venueOf(request).id, request.body.table_ids, request.body.table_type);
      return ok;
    },
  );

  app.post(
    `${base}/tables/set-area`,
    {
      schema: {
        summary: 'Move several tables to a seating area',
        ...common,
        description: 'A null seating_area_id detaches the tables.',
        params: VenueParams,
        body: SetAreaBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await tables.setArea(venueOf(request).id, request.body.table_ids, request.body.seating_area_id);
      return ok;
    },
  );

  app.get(
    `${base}/tables/:id`,
    { schema: { summary: 'Read a table', ...common, params: ItemParams, response: { 200: Table, ...readErrors } }, onRequest: read },
    async (request) => tables.get(venueOf(request).id, request.params.id),
  );

  app.post(
    `${base}/tables`,
    {
      schema: {
        summary: 'Create a table',
        ...common,
        description: 'Capacity defaults to 4, status to `active`, type to `standard`.',
        params: VenueParams,
        body: TableBody,
        response: { 200: CreatedBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await tables.create(venueOf(request).id, request.body) }),
  );

  app.put(
    `${base}/tables/:id`,
    {
      schema: {
        summary: 'Update a table',
        ...common,
        description: 'Updates the fields sent.',
        params: ItemParams,
        body: TableUpdateBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await tables.update(venueOf(request).id, request.params.id, request.body);
      return ok;
    },
  );

  app.delete(
    `${base}/tables/:id`,
    {
      schema: {
        summary: 'Delete a table',
        ...common,
        description: '409 while the table holds an upcoming reservation.',
        params: ItemParams,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await tables.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );

  // ---- floors ----
  app.get(
    `${base}/floors`,
    {
      schema: { summary: "List the venue's floors", ...common, params: VenueParams, response: { 200: list(Floor), ...readErrors } },
      onRequest: read,
    },
    async (request) => ({
      data: await floors.list(venueOf(request).id),
    }),
  );

  app.get(
    `${base}/floors/:id`,
    {
      schema: {
        summary: 'Read a floor with its canvas and tables',
        ...common,
        params: ItemParams,
        response: { 200: FloorDetail, ...readErrors },
      },
      onRequest: read,
    },
    async (request) => floors.get(venueOf(request).id, request.params.id),
  );

  app.post(
    `${base}/floors`,
    {
      schema: {
        summary: 'Create a floor',
        ...common,
        params: VenueParams,
        body: FloorBody,
        response: { 200: CreatedBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await floors.create(venueOf(request).id, request.body) }),
  );

  app.put(
    `${base}/floors/:id`,
    {
      schema: {
        summary: "Update a floor and sync its canvas's tables",
        ...common,
        description:
          'canvas_data replaces the canvas and syncs the tables (matched by tableNumber; unknown numbers are created; tables left out leave the floor).',
        params: ItemParams,
        body: FloorUpdateBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await floors.update(venueOf(request).id, request.params.id, request.body);
      return ok;
    },
  );

  app.delete(
    `${base}/floors/:id`,
    {
      schema: { summary: 'Delete a floor', ...common, params: ItemParams, response: { 200: SuccessBody, ...readErrors } },
      onRequest: write,
    },
    async (request) => {
      await floors.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );

  // ---- seating areas ----
  app.get(
    `${base}/seating-areas`,
    {
      schema: { summary: "List the venue's seating areas", ...common, params: VenueParams, response: { 200: list(Area), ...readErrors } },
      onRequest: read,
    },
    async (request) => ({
      data: await areas.list(venueOf(request).id),
    }),
  );

  app.post(
    `${base}/seating-areas`,
    {
      schema: {
        summary: 'Create a seating area',
        ...common,
        params: VenueParams,
        body: AreaBody,
        response: { 200: AreaCreated, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, ...(await areas.create(venueOf(request).id, request.body.name)) }),
  );

  app.put(
    `${base}/seating-areas/:id`,
    {
      schema: {
        summary: 'Rename a seating area',
        ...common,
        params: ItemParams,
        body: AreaBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await areas.rename(venueOf(request).id, request.params.id, request.body.name);
      return ok;
    },
  );

  app.delete(
    `${base}/seating-areas/:id`,
    {
      schema: {
        summary: 'Delete a seating area',
        ...common,
        description: 'Detaches its tables first.',
        params: ItemParams,
        response: { 200: SuccessBody, ...readErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await areas.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );

  // ---- smart tables ----
  app.get(
    `${base}/smart-tables`,
    {
      schema: {
        summary: "The venue's smart-table settings",
        ...common,
        params: VenueParams,
        response: { 200: SmartTables, ...readErrors },
      },
      onRequest: read,
    },
    async (request) => pricing.getSmartTables(venueOf(request).id),
  );

  app.put(
    `${base}/smart-tables`,
    {
      schema: {
        summary: "Set the venue's smart-table settings",
        ...common,
        description: 'reassign_last_run is read-only.',
        params: VenueParams,
        body: SmartTablesBody,
        response: { 200: SmartTablesSaved, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, data: await pricing.saveSmartTables(venueOf(request).id, request.body) }),
  );

  // ---- price lists ----
  app.get(
    `${base}/pricelists`,
    {
      schema: {
        summary: "List the venue's price lists",
        ...common,
        params: VenueParams,
        response: { 200: list(Pricelist), ...readErrors },
      },
      onRequest: read,
    },
    async (request) => ({
      data: await pricing.listPricelists(venueOf(request).id),
    }),
  );

  app.post(
    `${base}/pricelists`,
    {
      schema: {
        summary: 'Create a price list',
        ...common,
        description: 'default_price_pence defaults to 0.',
        params: VenueParams,
        body: PricelistBody,
        response: { 200: CreatedBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await pricing.createPricelist(venueOf(request).id, request.body) }),
  );

  app.put(
    `${base}/pricelists/:id`,
    {
      schema: {
        summary: 'Update a price list',
        ...common,
        params: ItemParams,
        body: PricelistUpdateBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await pricing.updatePricelist(venueOf(request).id, request.params.id, request.body);
      return ok;
    },
  );

  app.delete(
    `${base}/pricelists/:id`,
    {
      schema: {
        summary: 'Delete a price list',
        ...common,
        description: 'Clears its overrides and detaches it from access rules.',
        params: ItemParams,
        response: { 200: SuccessBody, ...readErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await pricing.deletePricelist(venueOf(request).id, request.params.id);
      return ok;
    },
  );

  app.put(
    `${base}/pricelists/:id/tables/:tableId`,
    {
      schema: {
        summary: "Set or clear a table's price in a price list",
        ...common,
        params: PriceParams,
        body: PriceBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await pricing.setTablePrice(venueOf(request).id, request.params.id, request.params.tableId, request.body.price_pence);
      return ok;
    },
  );
};
