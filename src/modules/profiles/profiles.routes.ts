/**
 * Profiles module routes (all under /api/my-venues/:venueId, permission `profiles`): the four profile
 * families, admission groups with nested rules, booking policies and payment policies.
 */
import { Type, type TSchema } from 'typebox';
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, errorResponses, SuccessBody } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { AdmissionService } from './admission.service.js';
import type { PoliciesService } from './policies.service.js';
import { familyBody, familyResponse, FAMILIES } from './profiles.families.js';
import {
  BookingPolicies,
  BookingPoliciesBody,
  Group,
  GroupBody,
  GroupParams,
  GroupUpdateBody,
  PaymentPolicy,
  PaymentPolicyBody,
  PaymentPolicyUpdateBody,
  RuleBody,
  RuleParams,
  RuleUpdateBody,
  VenueIdParams,
  VenueItemParams,
} from './profiles.schemas.js';
import type { ProfilesService } from './profiles.service.js';

const list = <T extends TSchema>(row: T) => Type.Object({ data: Type.Array(row) });

export interface ProfilesServices {
  profiles: ProfilesService;
  admission: AdmissionService;
  policies: PoliciesService;
}

export const profilesRoutes: RoutePlugin<ProfilesServices & { guard: GuardFactory }> = async (
  app,
  { guard, profiles, admission, policies },
) => {
  const read = guard({ permission: 'profiles:read', venueParam: 'venueId' });
  const write = guard({ permission: 'profiles:write', venueParam: 'venueId' });
  const security = [{ bearer: [] }];
  const base = '/api/my-venues/:venueId';

  for (const def of Object.values(FAMILIES)) {
    const tags = ['profiles'];
    const Body = familyBody(def);
    const url = `${base}/${def.path}`;
    const noun = `${def.path.replace(/-profiles$/, '')} profile`;
    type Body = Record<string, unknown> & { name: string };

    app.get(
      url,
      {
        schema: {
          summary: `List the venue's ${noun}s`,
          tags,
          security,
          params: VenueIdParams,
          response: { 200: list(familyResponse(def)), ...errorResponses(401, 403, 404) },
        },
        onRequest: read,
      },
      async (request) => ({ data: await profiles.list(venueOf(request).id, def.family) }),
    );
    app.post(
      url,
      {
        schema: {
          summary: `Create a ${noun}`,
          tags,
          security,
          params: VenueIdParams,
          body: Body,
          response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 404) },
        },
        onRequest: write,
      },
      async (request) => ({ success: true, id: await profiles.create(venueOf(request).id, def.family, request.body as Body) }),
    );
    app.put(
      `${url}/:id`,
      {
        schema: {
          summary: `Update a ${noun}`,
          tags,
          security,
          params: VenueItemParams,
          body: Body,
          response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
        },
        onRequest: write,
      },
      async (request) => {
        await profiles.update(venueOf(request).id, def.family, request.params.id, request.body as Body);
        return { success: true };
      },
    );
    app.delete(
      `${url}/:id`,
      {
        schema: {
          summary: `Delete a ${noun}`,
          tags,
          security,
          params: VenueItemParams,
          description: 'Removes the profile and detaches it from the access rules (and ticket types) that used it.',
          response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
        },
        onRequest: write,
      },
      async (request) => {
        await profiles.remove(venueOf(request).id, def.family, request.params.id);
        return { success: true };
      },
    );
  }

  const tags = ['admission'];
  app.get(
    `${base}/admission-groups`,
    {
      schema: {
        summary: "List the venue's admission groups with their rules",
        tags,
        security,
        params: VenueIdParams,
        response: { 200: list(Group), ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => ({ data: await admission.listGroups(venueOf(request).id) }),
  );
  app.post(
    `${base}/admission-groups`,
    {
      schema: {
        summary: 'Create an admission group',
        tags,
        security,
        params: VenueIdParams,
        body: GroupBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await admission.createGroup(venueOf(request).id, request.body) }),
  );
  app.put(
    `${base}/admission-groups/:gid`,
    {
      schema: {
        summary: 'Update an admission group',
        tags,
        security,
        params: GroupParams,
        body: GroupUpdateBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await admission.updateGroup(venueOf(request).id, request.params.gid, request.body);
      return { success: true };
    },
  );
  app.delete(
    `${base}/admission-groups/:gid`,
    {
      schema: {
        summary: 'Delete an admission group and its rules',
        tags,
        security,
        params: GroupParams,
        description: 'Removes the group and its rules, and detaches it from list profiles.',
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await admission.deleteGroup(venueOf(request).id, request.params.gid);
      return { success: true };
    },
  );
  app.post(
    `${base}/admission-groups/:gid/rules`,
    {
      schema: {
        summary: 'Add a rule to an admission group',
        tags,
        security,
        params: GroupParams,
        body: RuleBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await admission.createRule(venueOf(request).id, request.params.gid, request.body) }),
  );
  app.put(
    `${base}/admission-groups/:gid/rules/:id`,
    {
      schema: {
        summary: 'Update an admission rule',
        tags,
        security,
        params: RuleParams,
        body: RuleUpdateBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await admission.updateRule(venueOf(request).id, request.params.gid, request.params.id, request.body);
      return { success: true };
    },
  );
  app.delete(
    `${base}/admission-groups/:gid/rules/:id`,
    {
      schema: {
        summary: 'Delete an admission rule',
        tags,
        security,
        params: RuleParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await admission.deleteRule(venueOf(request).id, request.params.gid, request.params.id);
      return { success: true };
    },
  );

  const policyTags = ['policies'];
  app.get(
    `${base}/booking-policies`,
    {
      schema: {
        summary: "The venue's booking policies (tables, guest list, events)",
        tags: policyTags,
        security,
        params: VenueIdParams,
        response: { 200: BookingPolicies, ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => policies.getBookingPolicies(venueOf(request).id),
  );
  app.put(
    `${base}/booking-policies`,
    {
      schema: {
        summary: "Set the venue's booking policies",
        tags: policyTags,
        security,
        params: VenueIdParams,
        body: BookingPoliciesBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await policies.putBookingPolicies(venueOf(request).id, request.body);
      return { success: true };
    },
  );
  app.get(
    `${base}/payment-policies`,
    {
      schema: {
        summary: "List the venue's payment policies",
        tags: policyTags,
        security,
        params: VenueIdParams,
        response: { 200: list(PaymentPolicy), ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => ({ data: await policies.listPaymentPolicies(venueOf(request).id) }),
  );
  app.post(
    `${base}/payment-policies`,
    {
      schema: {
        summary: 'Create a payment policy',
        tags: policyTags,
        security,
        params: VenueIdParams,
        body: PaymentPolicyBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await policies.createPaymentPolicy(venueOf(request).id, request.body) }),
  );
  app.put(
    `${base}/payment-policies/:id`,
    {
      schema: {
        summary: 'Update a payment policy',
        tags: policyTags,
        security,
        params: VenueItemParams,
        body: PaymentPolicyUpdateBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await policies.updatePaymentPolicy(venueOf(request).id, request.params.id, request.body);
      return { success: true };
    },
  );
  app.delete(
    `${base}/payment-policies/:id`,
    {
      schema: {
        summary: 'Delete a payment policy',
        tags: policyTags,
        security,
        params: VenueItemParams,
        description: 'Removes the policy and detaches it from access rules, shifts and profiles.',
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await policies.deletePaymentPolicy(venueOf(request).id, request.params.id);
      return { success: true };
    },
  );
};
