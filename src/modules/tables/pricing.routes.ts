/**
 * Smart-table settings (/smart-tables) and price lists (/pricelists) under /api/my-venues/:venueId,
 * gated by the `tables` permission.
 */
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, SuccessBody, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { tablesRouteKit } from './route-kit.js';
import type { PricingService } from './pricing.service.js';
import {
  ItemParams,
  list,
  PriceBody,
  PriceParams,
  Pricelist,
  PricelistBody,
  PricelistUpdateBody,
  SmartTables,
  SmartTablesBody,
  SmartTablesSaved,
} from './tables.schemas.js';

export const pricingRoutes: RoutePlugin<{ guard: GuardFactory; pricing: PricingService }> = async (app, { guard, pricing }) => {
  const { base, read, write, common, readErrors, writeErrors, ok } = tablesRouteKit(guard);

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
