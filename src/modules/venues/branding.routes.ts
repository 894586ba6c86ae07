/** Branding, cover image and widget settings of a venue (`venues.branding`), under /api/my-venues/:venueId. */
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses, SuccessBody, UploadBusy, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import {
  Branding,
  BrandingBody,
  CoverImageBody,
  CoverImageResult,
  UrlResult,
  WidgetLogoBody,
  WidgetSettingBody,
  WidgetSettingResult,
  WidgetSettingsResult,
  WidgetThemeBody,
  WidgetTypeParams,
  type WidgetType,
} from './branding.schemas.js';
import type { BrandingService } from './branding.service.js';
import { ImageBody } from './venues.schemas.js';

export const brandingRoutes: RoutePlugin<{ guard: GuardFactory; branding: BrandingService }> = async (app, { guard, branding }) => {
  const tags = ['branding'];
  const security = [{ bearer: [] }];
  const read = guard({ permission: 'venues.branding:read', venueParam: 'venueId' });
  const write = guard({ permission: 'venues.branding:write', venueParam: 'venueId' });

  app.get(
    '/api/my-venues/:venueId/branding',
    {
      schema: {
        tags,
        security,
        summary: 'Brand record, or the defaults',
        params: VenueParams,
        response: { 200: Branding, ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => branding.branding(venueOf(request)),
  );

  app.put(
    '/api/my-venues/:venueId/branding',
    {
      schema: {
        summary: "Set the venue's branding (theme, colours, font)",
        tags,
        security,
        params: VenueParams,
        body: BrandingBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await branding.updateBranding(venueOf(request), request.body);
      return { success: true };
    },
  );

  app.post(
    '/api/my-venues/:venueId/branding-logo',
    {
      schema: {
        tags,
        security,
        summary: 'Upload the brand logo (max 2 MB)',
        params: VenueParams,
        body: ImageBody,
        response: { 200: UrlResult, ...errorResponses(400, 401, 403, 404), 503: UploadBusy },
      },
      onRequest: write,
    },
    async (request) => branding.uploadBrandingLogo(venueOf(request), request.body.data),
  );

  app.post(
    '/api/my-venues/:venueId/cover-image',
    {
      schema: {
        tags,
        security,
        summary: 'Upload (max 3 MB) or remove the cover image',
        params: VenueParams,
        body: CoverImageBody,
        response: { 200: CoverImageResult, ...errorResponses(400, 401, 403, 404), 503: UploadBusy },
      },
      onRequest: write,
    },
    async (request) => branding.coverImage(venueOf(request), request.body),
  );

  app.get(
    '/api/my-venues/:venueId/widget-settings',
    {
      schema: {
        tags,
        security,
        summary: 'Widget settings per type and the shared theme',
        description: 'Mints the public ids of widget types that have none yet; they never change afterwards.',
        params: VenueParams,
        response: { 200: WidgetSettingsResult, ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => branding.widgetSettings(venueOf(request)),
  );

  app.put(
    '/api/my-venues/:venueId/widget-settings/:type',
    {
      schema: {
        tags,
        security,
        summary: 'Switch a widget on or off',
        description: 'Enabling `vouchers` while gift vouchers are off is refused (400).',
        params: WidgetTypeParams,
        body: WidgetSettingBody,
        response: { 200: WidgetSettingResult, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => branding.updateWidget(venueOf(request), request.params.type as WidgetType, request.body),
  );

  app.put(
    '/api/my-venues/:venueId/widget-theme',
    {
      schema: {
        tags,
        security,
        summary: 'The widget theme shared by every widget type',
        params: VenueParams,
        body: WidgetThemeBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await branding.updateTheme(venueOf(request), request.body);
      return { success: true };
    },
  );

  app.post(
    '/api/my-venues/:venueId/widget-logo',
    {
      schema: {
        tags,
        security,
        summary: 'Upload a widget logo (max 2 MB)',
        params: VenueParams,
        body: WidgetLogoBody,
        response: { 200: UrlResult, ...errorResponses(400, 401, 403, 404), 503: UploadBusy },
      },
      onRequest: write,
    },
    async (request) => branding.uploadWidgetLogo(venueOf(request), request.body.data, request.body.type as WidgetType | undefined),
  );
};
