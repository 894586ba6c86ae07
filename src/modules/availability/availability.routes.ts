/**
 * The availability module owns a venue's time periods, shifts, access rules (with their image) and
 * blackouts, under /api/my-venues/:venueId, gated by the `availability` permission.
 */
import { Type } from 'typebox';
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, errorResponses, SuccessBody, UploadBusy, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import {
  AccessRule,
  AccessRuleBody,
  AvailabilityParams,
  Blackout,
  BlackoutBody,
  ImageBody,
  ImageResult,
  Shift,
  ShiftBody,
  ShiftUpdateBody,
  TimePeriod,
  TimePeriodBody,
  TimePeriodUpdateBody,
} from './availability.schemas.js';
import type { AccessRulesService } from './access-rules.service.js';
import type { AvailabilityService } from './availability.service.js';

const base = '/api/my-venues/:venueId';
const list = <T extends Parameters<typeof Type.Array>[0]>(row: T) => Type.Object({ data: Type.Array(row) });

export interface AvailabilityServices {
  availability: AvailabilityService;
  rules: AccessRulesService;
}

export const availabilityRoutes: RoutePlugin<AvailabilityServices & { guard: GuardFactory }> = async (
  app,
  { guard, availability, rules },
) => {
  const read = guard({ permission: 'availability:read', venueParam: 'venueId' });
  const write = guard({ permission: 'availability:write', venueParam: 'venueId' });
  const common = { tags: ['availability'], security: [{ bearer: [] }] };
  const readErrors = errorResponses(401, 403, 404);
  const writeErrors = errorResponses(400, 401, 403, 404);

  // ---- time periods ----
  app.get(
    `${base}/time-periods`,
    {
      schema: {
        summary: "List the venue's time periods",
        ...common,
        params: VenueParams,
        response: { 200: list(TimePeriod), ...readErrors },
      },
      onRequest: read,
    },
    async (request) => ({
      data: await availability.listTimePeriods(venueOf(request).id),
    }),
  );

  app.post(
    `${base}/time-periods`,
    {
      schema: {
        summary: 'Create a time period',
        ...common,
        params: VenueParams,
        body: TimePeriodBody,
        response: { 200: CreatedBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await availability.createTimePeriod(venueOf(request).id, request.body) }),
  );

  app.put(
    `${base}/time-periods/:id`,
    {
      schema: {
        summary: 'Update a time period',
        ...common,
        description: 'Updates the fields sent.',
        params: AvailabilityParams,
        body: TimePeriodUpdateBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await availability.updateTimePeriod(venueOf(request).id, request.params.id, request.body);
      return { success: true };
    },
  );

  app.delete(
    `${base}/time-periods/:id`,
    {
      schema: { summary: 'Delete a time period', ...common, params: AvailabilityParams, response: { 200: SuccessBody, ...readErrors } },
      onRequest: write,
    },
    async (request) => {
      await availability.deleteTimePeriod(venueOf(request).id, request.params.id);
      return { success: true };
    },
  );

  // ---- shifts ----
  app.get(
    `${base}/shifts`,
    {
      schema: { summary: "List the venue's shifts", ...common, params: VenueParams, response: { 200: list(Shift), ...readErrors } },
      onRequest: read,
    },
    async (request) => ({
      data: await availability.listShifts(venueOf(request).id),
    }),
  );

  app.post(
    `${base}/shifts`,
    {
      schema: {
        summary: 'Create a shift',
        ...common,
        params: VenueParams,
        body: ShiftBody,
        response: { 200: CreatedBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await availability.createShift(venueOf(request), request.body) }),
  );

  app.put(
    `${base}/shifts/:id`,
    {
      schema: {
        summary: 'Replace a shift',
        ...common,
        description: 'Re-sends the field set: omitted fields return to their defaults; an omitted days_of_week is kept.',
        params: AvailabilityParams,
        body: ShiftUpdateBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await availability.updateShift(venueOf(request), request.params.id, request.body);
      return { success: true };
    },
  );

  app.delete(
    `${base}/shifts/:id`,
    {
      schema: { summary: 'Delete a shift', ...common, params: AvailabilityParams, response: { 200: SuccessBody, ...readErrors } },
      onRequest: write,
    },
    async (request) => {
      await availability.deleteShift(venueOf(request).id, request.params.id);
      return { success: true };
    },
  );

  // ---- access rules ----
  app.get(
    `${base}/access-rules`,
    {
      schema: {
        summary: "List the venue's access rules (bookable offers)",
        ...common,
        params: VenueParams,
        response: { 200: list(AccessRule), ...readErrors },
      },
      onRequest: read,
    },
    async (request) => ({
      data: await rules.list(venueOf(request).id),
    }),
  );

  app.post(
    `${base}/access-rules`,
    {
      schema: {
        summary: 'Create an access rule',
        ...common,
        description: 'Only name is required. The first rule makes the venue bookable on discovery surfaces.',
        params: VenueParams,
        body: AccessRuleBody,
        response: { 200: CreatedBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await rules.create(venueOf(request), request.body) }),
  );

  app.put(
    `${base}/access-rules/:id`,
    {
      schema: {
        summary: 'Replace an access rule',
        ...common,
        description:
          'Same body as create; omitted fields return to their defaults, the uploaded image is kept unless display_image_url is null.',
        params: AvailabilityParams,
        body: AccessRuleBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await rules.update(venueOf(request), request.params.id, request.body);
      return { success: true };
    },
  );

  app.delete(
    `${base}/access-rules/:id`,
    {
      schema: { summary: 'Delete an access rule', ...common, params: AvailabilityParams, response: { 200: SuccessBody, ...readErrors } },
      onRequest: write,
    },
    async (request) => {
      await rules.remove(venueOf(request), request.params.id);
      return { success: true };
    },
  );

  app.post(
    `${base}/access-rules/:id/image`,
    {
      schema: {
        summary: "Upload an access rule's display image (max 2 MB)",
        ...common,
        description: 'Base64 data URL of a PNG, JPEG, WebP or GIF image, at most 2 MB; stored as display_image_url.',
        params: AvailabilityParams,
        body: ImageBody,
        response: { 200: ImageResult, ...writeErrors, 503: UploadBusy },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, url: await rules.uploadImage(venueOf(request), request.params.id, request.body.data) }),
  );

  // ---- blackouts ----
  app.get(
    `${base}/blackouts`,
    {
      schema: { summary: "List the venue's blackouts", ...common, params: VenueParams, response: { 200: list(Blackout), ...readErrors } },
      onRequest: read,
    },
    async (request) => ({
      data: await availability.listBlackouts(venueOf(request).id),
    }),
  );

  app.post(
    `${base}/blackouts`,
    {
      schema: {
        summary: 'Create a blackout',
        ...common,
        params: VenueParams,
        body: BlackoutBody,
        response: { 200: CreatedBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await availability.createBlackout(venueOf(request).id, request.body) }),
  );

  app.put(
    `${base}/blackouts/:id`,
    {
      schema: {
        summary: 'Update a blackout',
        ...common,
        params: AvailabilityParams,
        body: BlackoutBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await availability.updateBlackout(venueOf(request).id, request.params.id, request.body);
      return { success: true };
    },
  );

  app.delete(
    `${base}/blackouts/:id`,
    {
      schema: { summary: 'Delete a blackout', ...common, params: AvailabilityParams, response: { 200: SuccessBody, ...readErrors } },
      onRequest: write,
    },
    async (request) => {
      await availability.deleteBlackout(venueOf(request).id, request.params.id);
      return { success: true };
    },
  );
};
