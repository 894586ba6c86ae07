/**
 * Table blocks (tables unavailable for a period) under /api/my-venues/:venueId/tables, gated by the
 * `tables` permission. Registered by tablesRoutes (tables.routes.ts) before /tables/:id.
 */
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { SuccessBody, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { tablesRouteKit } from './route-kit.js';
import type { BlocksService } from './blocks.service.js';
import { Block, BlockBody, BlockCreated, BlockListQuery, BlockUpdateBody, ItemParams, list, UnblockBody } from './tables.schemas.js';

export const blocksRoutes: RoutePlugin<{ guard: GuardFactory; blocks: BlocksService }> = async (app, { guard, blocks }) => {
  const { base, read, write, common, readErrors, writeErrors, ok } = tablesRouteKit(guard);

  app.get(
    `${base}/tables/blocks`,
    {
      schema: {
        summary: "List the venue's table blocks",
        description:
          'By start, table number and id. Extension: `date` (optional) keeps the blocks overlapping that service day, from 06:00 ' +
          'venue-local to 06:00 the next morning (the reservation floor’s day); without it, every block.',
        ...common,
        params: VenueParams,
        querystring: BlockListQuery,
        response: { 200: list(Block), ...readErrors },
      },
      onRequest: read,
    },
    async (request) => ({
      data: await blocks.list(venueOf(request), request.query.date),
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
};
