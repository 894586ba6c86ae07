-- GET /api/public/venues/:venueId/availability (date, party_size)
select * from "venues" where "id" = $1;
select * from "time_periods" where "venue_id" = $1 order by "id";
select * from "shifts" where "venue_id" = $1 order by "id";
select * from "access_rules" where "venue_id" = $1 order by "id";
select * from "blackouts" where "venue_id" = $1 order by "id";
select * from "venue_tables" where "venue_id" = $1;
select "id", "name" from "table_combinations" where "venue_id" = $1 order by "id";
select "m"."combination_id", "m"."table_id" from "table_combination_tables" as "m" inner join "table_combinations" as "c" on "c"."id" = "m"."combination_id" where "c"."venue_id" = $1;
select "id", "name" from "seating_areas" where "venue_id" = $1 order by "id";
select * from "smart_table_settings" where "venue_id" = $1;
select "table_id", "blocked_from", "blocked_to" from "table_blocks" where "venue_id" = $1 and "blocked_from" < $2 and "blocked_to" > $3;
select "b"."id", "b"."booking_date", "b"."starts_at", "b"."ends_at", "b"."guest_count", "b"."access_rule_id", "bt"."table_id" from "bookings" as "b" left join "booking_tables" as "bt" on "bt"."booking_id" = "b"."id" where "b"."venue_id" = $1 and "b"."booking_date" in ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22) and "b"."status" in ($23, $24, $25, $26, $27) and "b"."starts_at" is not null and "b"."ends_at" is not null;

-- POST /api/public/venues/:venueId/book (a table, no deposit)
select * from "time_periods" where "venue_id" = $1 order by "id";
select * from "shifts" where "venue_id" = $1 order by "id";
select * from "access_rules" where "venue_id" = $1 order by "id";
select * from "blackouts" where "venue_id" = $1 order by "id";
select * from "venue_tables" where "venue_id" = $1;
select "id", "name" from "table_combinations" where "venue_id" = $1 order by "id";
select "m"."combination_id", "m"."table_id" from "table_combination_tables" as "m" inner join "table_combinations" as "c" on "c"."id" = "m"."combination_id" where "c"."venue_id" = $1;
select "id", "name" from "seating_areas" where "venue_id" = $1 order by "id";
select * from "smart_table_settings" where "venue_id" = $1;
select "table_id", "blocked_from", "blocked_to" from "table_blocks" where "venue_id" = $1 and "blocked_from" < $2 and "blocked_to" > $3;
select pg_advisory_xact_lock(hashtextextended($1, 0));
select "b"."id", "b"."starts_at", "b"."ends_at", "b"."guest_count", "b"."access_rule_id", "bt"."table_id" from "bookings" as "b" left join "booking_tables" as "bt" on "bt"."booking_id" = "b"."id" where "b"."venue_id" = $1 and "b"."booking_date" >= $2 and "b"."booking_date" <= $3 and "b"."status" in ($4, $5, $6, $7, $8) and "b"."starts_at" < $9 and "b"."ends_at" > $10;
insert into "users" ("id", "role", "name", "email", "phone", "password_hash", "operator_id", "role_id", "totp_secret", "totp_pending_secret", "membership_tier", "profile_image_url", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) on conflict ("email") do nothing returning "id", "name", "email";
select "id" from "bookings" where "venue_id" = $1 and "booking_date" = $2 and "reference" = $3;
insert into "bookings" ("id", "operator_id", "venue_id", "kind", "rule_type", "status", "user_id", "access_rule_id", "booking_date", "start_time", "duration_minutes", "starts_at", "ends_at", "guest_count", "guest_name", "guest_email", "guest_phone", "total_pence", "bundle_selections", "payment_policy_id", "deposit_type", "deposit_pence", "payment_status", "payment_expires_at", "hold_address", "status_changed_at", "created_at", "updated_at", "reference") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29);
with "venues" as (insert into "guest_roster_venues" ("operator_id", "user_id", "first_seen_at", "last_seen_at", "venue_id") values ($1, $2, $3, $4, $5) on conflict ("operator_id", "user_id", "venue_id") do update set "first_seen_at" = case when excluded.first_seen_at < "guest_roster_venues"."first_seen_at" then excluded.first_seen_at else "guest_roster_venues"."first_seen_at" end, "last_seen_at" = case when excluded.last_seen_at > "guest_roster_venues"."last_seen_at" then excluded.last_seen_at else "guest_roster_venues"."last_seen_at" end) insert into "guest_roster" ("operator_id", "user_id", "first_seen_at", "last_seen_at", "phone") values ($6, $7, $8, $9, $10) on conflict ("operator_id", "user_id") do update set "first_seen_at" = case when excluded.first_seen_at < "guest_roster"."first_seen_at" then excluded.first_seen_at else "guest_roster"."first_seen_at" end, "last_seen_at" = case when excluded.last_seen_at > "guest_roster"."last_seen_at" then excluded.last_seen_at else "guest_roster"."last_seen_at" end, "phone" = coalesce(excluded.phone, guest_roster.phone) returning "operator_id", "user_id", "phone";
with "stale" as (delete from "guest_search_terms" where "operator_id" = $1 and "user_id" in ($2) and ("user_id", "term") not in (($3, $4), ($5, $6), ($7, $8), ($9, $10), ($11, $12))) insert into "guest_search_terms" ("operator_id", "user_id", "term") values ($13, $14, $15), ($16, $17, $18), ($19, $20, $21), ($22, $23, $24), ($25, $26, $27) on conflict do nothing;
insert into "booking_tables" ("booking_id", "table_id", "venue_id", "starts_at", "ends_at") values ($1, $2, $3, $4, $5);
insert into "booking_slots" ("table_id", "slot", "booking_id", "venue_id") values ($1, $2, $3, $4), ($5, $6, $7, $8), ($9, $10, $11, $12), ($13, $14, $15, $16), ($17, $18, $19, $20), ($21, $22, $23, $24), ($25, $26, $27, $28), ($29, $30, $31, $32);
select "id", "events", "venue_ids" from "webhook_endpoints" where "operator_id" = $1 and "enabled" = $2;
insert into "booking_history" ("id", "booking_id", "at", "actor_kind", "actor_id", "actor_name", "action", "from_status", "to_status", "detail") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);
insert into "mail_outbox" ("id", "recipient", "subject", "text_body", "html_body", "sender_name", "reply_to", "attachments", "template", "template_data", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16);
select pg_notify($1, $2);
insert into "platform_settings" ("key", "value", "updated_at") values ($1, $2, $3) on conflict ("key") do nothing;
select "value" from "platform_settings" where "key" = $1;

-- GET /api/my-venues/:venueId/bookings (date)
select * from "venues" where "id" = $1;
select id as session_id, user_id, expires_at, last_seen_at, created_at, auth_version from sessions where token_hash = $1;
select * from "bookings" where "venue_id" = $1 and "booking_date" = $2 order by "booking_date", coalesce("start_time", ''), "id" limit $3 offset $4;
select count(*) as "total" from "bookings" where "venue_id" = $1 and "booking_date" = $2;
select "booking_id", "table_id" from "booking_tables" where "booking_id" in ($1, $2) order by "table_id";

-- GET /api/my-guests/search (q)
select id as session_id, user_id, expires_at, last_seen_at, created_at, auth_version from sessions where token_hash = $1;
select "guest_search_terms"."user_id", "guest_search_terms"."term" from "guest_search_terms" where "guest_search_terms"."operator_id" = $1 and "guest_search_terms"."term" >= $2 and "guest_search_terms"."term" < $3 order by "guest_search_terms"."term", "guest_search_terms"."user_id" limit $4;
select "id", "name", "email", "phone", "membership_tier", "profile_image_url", "created_at", case when password_hash is null then 0 else 1 end as "registered" from "users" where "id" in ($1, $2, $3) and "role" = $4;
select "user_id", "phone" from "guest_roster" where "operator_id" = $1 and "user_id" in ($2, $3, $4);
select "user_id", count(*) as "total_bookings", sum(case when status = $1 then 1 else 0 end) as "visits", sum(case when status = $2 then 1 else 0 end) as "no_shows", sum(case when status = $3 then 1 else 0 end) as "cancellations", sum(case when status = $4 then 1 else 0 end) as "door_rejections", sum((case when captured_pence > 0 then captured_pence when payment_status in ('paid', 'partially_refunded', 'refunded') then deposit_pence else 0 end) - refunded_pence) as "spend_pence", max(case when status = 'checked_in' then booking_date end) as "last_visit_date" from "bookings" where "user_id" in ($5, $6, $7) and "operator_id" = $8 group by "user_id";
select "user_id", "venue_id" from "guest_roster_venues" where "operator_id" = $1 and "user_id" in ($2, $3, $4) order by "user_id", "venue_id";
