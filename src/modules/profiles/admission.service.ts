/**
 * Admission groups and their rules: the conditions a guest-list guest may meet and what meeting them
 * earns (see domain/admission.ts for the evaluation). Deleting a group removes its rules and detaches it
 * from the list profiles (and ticket types) that used it.
 */
import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { parseIdArray } from '../../db/json.js';
import { kyselyOf, withTransaction, type Conn } from '../../db/transaction.js';
import type { AdmissionRule } from '../../domain/admission.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { toFlag } from '../../platform/http.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import type { References } from '../../platform/references.js';
import { requiredText } from '../../platform/text.js';
import type { GroupBody, GroupUpdateBody, RuleBody, RuleUpdateBody } from './profiles.schemas.js';
import type { AdmissionRulesTable } from './profiles.table.js';

type RuleRow = Selectable<AdmissionRulesTable>;

export function toRule(row: RuleRow): AdmissionRule & { name: string; group_id: string; created_at: string; updated_at: string } {
  return {
    id: row.id,
    group_id: row.group_id,
    name: row.name,
    cond_tags_enabled: Boolean(row.cond_tags_enabled),
    cond_tags: parseIdArray(row.cond_tags),
    cond_bookings_enabled: Boolean(row.cond_bookings_enabled),
    cond_bookings_min: row.cond_bookings_min,
    cond_connections_enabled: Boolean(row.cond_connections_enabled),
    cond_connections_min: row.cond_connections_min,
    act_discount_enabled: Boolean(row.act_discount_enabled),
    act_discount_pct: row.act_discount_pct,
    act_autoapprove_enabled: Boolean(row.act_autoapprove_enabled),
    act_maxplus_enabled: Boolean(row.act_maxplus_enabled),
    act_maxplus: row.act_maxplus,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The rules of a venue's admission group, for the guest-list booking to evaluate. */
export async function loadAdmissionRules(db: Conn, venueId: string, groupId: string): Promise<AdmissionRule[]> {
  const rows = await kyselyOf(db)
    .selectFrom('admission_rules')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('group_id', '=', groupId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toRule);
}

/** Toggle → value that must be present while it is on. */
const RULE_PAIRS: [keyof RuleRow, keyof RuleRow][] = [
  ['cond_bookings_enabled', 'cond_bookings_min'],
  ['cond_connections_enabled', 'cond_connections_min'],
  ['act_discount_enabled', 'act_discount_pct'],
  ['act_maxplus_enabled', 'act_maxplus'],
];

function ruleProblem(rule: ReturnType<typeof toRule>): string | undefined {
  if (!rule.name.trim()) return 'name must not be blank';
  if (rule.cond_tags_enabled && rule.cond_tags.length === 0) return 'cond_tags needs at least one tag when cond_tags_enabled is on';
  for (const [toggle, value] of RULE_PAIRS) {
    if (rule[toggle as keyof typeof rule] && rule[value as keyof typeof rule] == null) return `${value} is required when ${toggle} is on`;
  }
  return undefined;
}

/** Body fields → column values (only those sent). */
function ruleColumns(body: RuleUpdateBody): Updateable<AdmissionRulesTable> {
  const out: Updateable<AdmissionRulesTable> = {};
  if (body.name !== undefined) out.name = body.name.trim();
  if (body.cond_tags !== undefined) out.cond_tags = JSON.stringify([...new Set(body.cond_tags.map((t) => t.trim()).filter(Boolean))]);
  for (const key of [
    'cond_tags_enabled',
    'cond_bookings_enabled',
    'cond_connections_enabled',
    'act_discount_enabled',
    'act_autoapprove_enabled',
    'act_maxplus_enabled',
  ] as const) {
    if (body[key] !== undefined) out[key] = toFlag(body[key]);
  }
  for (const key of ['cond_bookings_min', 'cond_connections_min', 'act_discount_pct', 'act_maxplus'] as const) {
    if (body[key] !== undefined) out[key] = body[key];
  }
  return out;
}

export function createAdmissionService(deps: { db: Db; clock: Clock; references: References }) {
  const { db, clock, references } = deps;

  async function loadGroup(venueId: string, groupId: string) {
    const group = await db.kysely
      .selectFrom('admission_groups')
      .selectAll()
      .where('venue_id', '=', venueId)
      .where('id', '=', groupId)
      .executeTakeFirst();
    if (!group) throw notFound('Admission group');
    return group;
  }

  async function loadRule(venueId: string, groupId: string, ruleId: string) {
    const rule = await db.kysely
      .selectFrom('admission_rules')
      .selectAll()
      .where('venue_id', '=', venueId)
      .where('group_id', '=', groupId)
      .where('id', '=', ruleId)
      .executeTakeFirst();
    if (!rule) throw notFound('Admission rule');
    return rule;
  }

  return {
    async listGroups(venueId: string) {
      const [groups, rules] = await Promise.all([
        db.kysely
          .selectFrom('admission_groups')
          .selectAll()
          .where('venue_id', '=', venueId)
          .orderBy('sort_order')
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
        db.kysely.selectFrom('admission_rules').selectAll().where('venue_id', '=', venueId).orderBy('created_at').orderBy('id').execute(),
      ]);
      return groups.map((group) => ({
        id: group.id,
        name: group.name,
        sort_order: group.sort_order,
        created_at: group.created_at,
        updated_at: group.updated_at,
        rules: rules.filter((rule) => rule.group_id === group.id).map(toRule),
      }));
    },

    async createGroup(venueId: string, body: GroupBody): Promise<string> {
      const name = requiredText(body.name, 'name');
      const id = newId('adg');
      const at = clock.now().toISOString();
      await db.kysely
        .insertInto('admission_groups')
        .values({ id, venue_id: venueId, name, sort_order: body.sort_order ?? 0, created_at: at, updated_at: at })
        .execute();
      return id;
    },

    async updateGroup(venueId: string, groupId: string, body: GroupUpdateBody): Promise<void> {
      await loadGroup(venueId, groupId);
      const name = body.name === undefined ? undefined : requiredText(body.name, 'name');
      await db.kysely
        .updateTable('admission_groups')
        .set({
          ...(name !== undefined ? { name } : {}),
          ...(body.sort_order !== undefined ? { sort_order: body.sort_order } : {}),
          updated_at: clock.now().toISOString(),
        })
        .where('id', '=', groupId)
        .execute();
    },

    async deleteGroup(venueId: string, groupId: string): Promise<void> {
      await loadGroup(venueId, groupId);
      await withTransaction(db, async (trx) => {
        await trx.deleteFrom('admission_rules').where('venue_id', '=', venueId).where('group_id', '=', groupId).execute();
        // List profiles (and ticket types) that used it stop naming it.
        await references.repoint(trx, 'admission_group', venueId, new Map([[groupId, null]]), clock.now().toISOString());
        await trx.deleteFrom('admission_groups').where('id', '=', groupId).where('venue_id', '=', venueId).execute();
      });
    },

    async createRule(venueId: string, groupId: string, body: RuleBody): Promise<string> {
      await loadGroup(venueId, groupId);
      const id = newId('adr');
      const at = clock.now().toISOString();
      const row = {
        id,
        venue_id: venueId,
        group_id: groupId,
        name: '',
        cond_tags_enabled: 0,
        cond_tags: '[]',
        cond_bookings_enabled: 0,
        cond_bookings_min: null,
        cond_connections_enabled: 0,
        cond_connections_min: null,
        act_discount_enabled: 0,
        act_discount_pct: null,
        act_autoapprove_enabled: 0,
        act_maxplus_enabled: 0,
        act_maxplus: null,
        created_at: at,
        updated_at: at,
        ...ruleColumns(body),
      } as RuleRow;
      const problem = ruleProblem(toRule(row));
      if (problem) throw badRequest(problem);
      await db.kysely.insertInto('admission_rules').values(row).execute();
      return id;
    },

    /** Fields left out keep their stored values. */
    async updateRule(venueId: string, groupId: string, ruleId: string, body: RuleUpdateBody): Promise<void> {
      const current = await loadRule(venueId, groupId, ruleId);
      const changes = ruleColumns(body);
      const problem = ruleProblem(toRule({ ...current, ...changes } as RuleRow));
      if (problem) throw badRequest(problem);
      await db.kysely
        .updateTable('admission_rules')
        .set({ ...changes, updated_at: clock.now().toISOString() })
        .where('id', '=', ruleId)
        .execute();
    },

    async deleteRule(venueId: string, groupId: string, ruleId: string): Promise<void> {
      await loadRule(venueId, groupId, ruleId);
      await db.kysely.deleteFrom('admission_rules').where('id', '=', ruleId).execute();
    },
  };
}

export type AdmissionService = ReturnType<typeof createAdmissionService>;
