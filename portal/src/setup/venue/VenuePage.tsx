/**
 * A venue's settings (`/setup/venue?venue=`): details, address and time zone, contact, images (cropped in
 * the browser), bookings (horizon, cut-off, durations, party sizes), smart durations, the door, the guest
 * list and sister venues. Each section saves on its own through the venue update endpoints
 * (`PUT /api/my-venues/:id`, the logo and cover-image uploads, `PUT …/smart-tables`, the sister links).
 */
import { useQuery } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api, call } from '../../api/client';
import { useCan, useCurrentVenue } from '../../shell/account';
import { SetupNav } from '../SetupNav';
import { messageOf, saveVenue, setupKey, useRefreshVenue, useVenueRecord, type VenueChanges, type VenueRecord } from './data';
import {
  Choice,
  NumberInput,
  numberOrNull,
  penceOrNull,
  poundsText,
  requireNumber,
  SectionForm,
  text,
  TextBox,
  TextInput,
  Toggle,
} from './fields';
import { ImageField } from './ImageField';
import { SistersSection } from './SistersSection';

const VENUE_TYPES = [
  ['', 'Not set'],
  ['bar', 'Bar'],
  ['restaurant', 'Restaurant'],
  ['cafe', 'Café'],
  ['club', 'Club'],
  ['pub', 'Pub'],
] as const;
const FOOD_TYPES = ['restaurant', 'cafe'];
const UNITS = [
  ['', 'No limit'],
  ['minutes', 'minutes'],
  ['hours', 'hours'],
  ['days', 'days'],
  ['weeks', 'weeks'],
  ['months', 'months'],
] as const;

type Unit = NonNullable<VenueChanges['booking_start_unit']>;
const unitOrNull = (value: number | null, unit: string) => (value === null || unit === '' ? null : (unit as Unit));

interface SectionProps {
  venue: VenueRecord;
  save: (changes: VenueChanges) => Promise<void>;
  disabled: boolean;
}

export default function VenuePage() {
  const can = useCan();
  const current = useCurrentVenue();
  const venueId = current?.id;
  const record = useVenueRecord(venueId);
  const refresh = useRefreshVenue(venueId);
  const disabled = !can('venues.settings', 'write');
  const venue = record.data;
  const hash = useRouterState({ select: (state) => state.location.hash });
  const loaded = Boolean(venue);

  // A link to a section (`#door`, from the checklist) arrives before the sections exist: go there once they do.
  useEffect(() => {
    if (loaded && hash) document.getElementById(hash)?.scrollIntoView();
  }, [loaded, hash]);

  async function save(changes: VenueChanges) {
    await saveVenue(venueId!, changes);
    await refresh();
  }

  return (
    <main className="page setup" id="main">
      <SetupNav venueId={venueId} />
      <h1>{venue ? `${venue.name}: venue settings` : 'Venue settings'}</h1>
      {record.error && (
        <p className="error" role="alert">
          {messageOf(record.error)}
        </p>
      )}
      {record.isPending && <p>Loading…</p>}
      {disabled && <p className="notice">Your role can read these settings but not change them.</p>}
      {venue && (
        // Keyed by venue: another venue starts from its own values.
        <div className="setup__sections" key={venue.id}>
          <DetailsSection venue={venue} save={save} disabled={disabled} />
          <AddressSection venue={venue} save={save} disabled={disabled} />
          <ContactSection venue={venue} save={save} disabled={disabled} />
          <ImagesSection venue={venue} disabled={!can('venues.branding', 'write')} refresh={refresh} />
          <BookingsSection venue={venue} save={save} disabled={disabled} />
          {can('tables', 'read') && <SmartDurations venueId={venue.id} disabled={!can('tables', 'write')} />}
          <DoorSection venue={venue} save={save} disabled={disabled} />
          <GuestListSection venue={venue} save={save} disabled={disabled} />
          {can('venues.sisters', 'read') && <SistersSection venue={venue} disabled={!can('venues.sisters', 'write')} />}
        </div>
      )}
    </main>
  );
}

function DetailsSection({ venue, save, disabled }: SectionProps) {
  const [name, setName] = useState(venue.name);
  const [type, setType] = useState(venue.venue_type ?? '');
  const [food, setFood] = useState(
    Array.isArray(venue.food_types) ? venue.food_types.join(', ') : typeof venue.food_types === 'string' ? venue.food_types : '',
  );
  const [description, setDescription] = useState(text(venue.description));
  const [website, setWebsite] = useState(text(venue.website));
  const types = VENUE_TYPES.some(([value]) => value === type) ? VENUE_TYPES : [...VENUE_TYPES, [type, type] as const];
  const servesFood = FOOD_TYPES.includes(type);
  return (
    <SectionForm
      id="details"
      title="Details"
      disabled={disabled}
      save={() => {
        const foods = food
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean);
        return save({
          name,
          venue_type: type || null,
          ...(servesFood ? { food_types: foods.length > 0 ? foods : null } : {}),
          description,
          website,
        });
      }}
    >
      <TextInput label="Venue name" value={name} onChange={setName} required maxLength={200} />
      <Choice label="Venue type" value={type} onChange={setType} options={types} />
      {servesFood && (
        <TextInput label="Food served" value={food} onChange={setFood} hint="Separate kinds with commas, e.g. Italian, pizza" />
      )}
      <TextBox label="Description" value={description} onChange={setDescription} maxLength={5000} rows={4} />
      <TextInput label="Website" type="url" value={website} onChange={setWebsite} maxLength={500} hint="https://…" />
    </SectionForm>
  );
}

/** The browser's IANA zones, with the venue's own kept even if the browser does not list it. */
function zones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(current) ? all : [current, ...all];
}

function AddressSection({ venue, save, disabled }: SectionProps) {
  const [address, setAddress] = useState(venue.address);
  const [timezone, setTimezone] = useState(venue.timezone);
  return (
    <SectionForm id="address" title="Address and time zone" disabled={disabled} save={() => save({ address, timezone })}>
      <TextBox label="Address" value={address} onChange={setAddress} required maxLength={500} rows={3} />
      <Choice
        label="Time zone"
        value={timezone}
        onChange={setTimezone}
        options={zones(venue.timezone).map((zone) => [zone, zone.replaceAll('_', ' ')] as const)}
        hint="Every booking date and time of the venue is in this zone."
      />
    </SectionForm>
  );
}

function ContactSection({ venue, save, disabled }: SectionProps) {
  const [phone, setPhone] = useState(text(venue.phone));
  const [email, setEmail] = useState(text(venue.email));
  const [sender, setSender] = useState(text(venue.marketing_sender_name));
  const [replyTo, setReplyTo] = useState(text(venue.marketing_reply_to));
  const [instagram, setInstagram] = useState(text(venue.instagram_url));
  const [tiktok, setTiktok] = useState(text(venue.tiktok_url));
  const [twitter, setTwitter] = useState(text(venue.twitter_url));
  return (
    <SectionForm
      id="contact"
      title="Contact"
      disabled={disabled}
      save={() =>
        save({
          phone,
          email,
          marketing_sender_name: sender,
          marketing_reply_to: replyTo,
          instagram_url: instagram,
          tiktok_url: tiktok,
          twitter_url: twitter,
        })
      }
    >
      <div className="setup-form__grid">
        <TextInput label="Phone number" type="tel" value={phone} onChange={setPhone} maxLength={40} />
        <TextInput label="Email address" type="email" value={email} onChange={setEmail} maxLength={254} />
        <TextInput
          label="Email sender name"
          value={sender}
          onChange={setSender}
          maxLength={100}
          hint="The name guests see on the venue’s emails"
        />
        <TextInput label="Reply-to address" type="email" value={replyTo} onChange={setReplyTo} maxLength={254} />
        <TextInput label="Instagram" type="url" value={instagram} onChange={setInstagram} maxLength={500} />
        <TextInput label="TikTok" type="url" value={tiktok} onChange={setTiktok} maxLength={500} />
        <TextInput label="X (Twitter)" type="url" value={twitter} onChange={setTwitter} maxLength={500} />
      </div>
    </SectionForm>
  );
}

function ImagesSection({ venue, disabled, refresh }: { venue: VenueRecord; disabled: boolean; refresh: () => Promise<unknown> }) {
  return (
    <section id="images" className="panel setup__panel" aria-labelledby="images-title">
      <h2 id="images-title">Images</h2>
      {disabled && <p className="muted">Your role cannot change the venue’s images.</p>}
      <div className="setup__images">
        <ImageField
          id="logo"
          title="Logo"
          shape="square"
          width={400}
          height={400}
          type="image/png"
          maxBytes={500 * 1024}
          currentUrl={venue.logo_url}
          disabled={disabled}
          upload={async (data) => {
            await call(api.POST('/api/venues/{id}/logo', { params: { path: { id: venue.id } }, body: { data } }));
            await refresh();
          }}
        />
        <ImageField
          id="cover"
          title="Cover image"
          shape="16:9, wide"
          width={1600}
          height={900}
          type="image/jpeg"
          maxBytes={3 * 1024 * 1024}
          currentUrl={venue.cover_image_url}
          disabled={disabled}
          upload={async (data) => {
            await call(api.POST('/api/my-venues/{venueId}/cover-image', { params: { path: { venueId: venue.id } }, body: { data } }));
            await refresh();
          }}
          remove={async () => {
            await call(
              api.POST('/api/my-venues/{venueId}/cover-image', { params: { path: { venueId: venue.id } }, body: { remove: true } }),
            );
            await refresh();
          }}
        />
      </div>
    </section>
  );
}

function BookingsSection({ venue, save, disabled }: SectionProps) {
  const [tables, setTables] = useState(venue.tables_enabled);
  const [duration, setDuration] = useState(text(venue.default_booking_duration));
  const [partyMin, setPartyMin] = useState(text(venue.default_party_min));
  const [partyMax, setPartyMax] = useState(text(venue.default_party_max));
  const [startValue, setStartValue] = useState(text(venue.booking_start_value));
  const [startUnit, setStartUnit] = useState(text(venue.booking_start_unit));
  const [cutoffValue, setCutoffValue] = useState(text(venue.booking_cutoff_value));
  const [cutoffUnit, setCutoffUnit] = useState(text(venue.booking_cutoff_unit));
  return (
    <SectionForm
      id="bookings"
      title="Bookings"
      intro="The defaults every booking rule starts from; a rule can set its own."
      disabled={disabled}
      save={() => {
        const start = requireNumber(numberOrNull(startValue), 'How far ahead');
        const cutoff = requireNumber(numberOrNull(cutoffValue), 'Cut-off');
        return save({
          tables_enabled: tables,
          default_booking_duration: requireNumber(numberOrNull(duration), 'Booking length') ?? 120,
          default_party_min: requireNumber(numberOrNull(partyMin), 'Smallest party') ?? 1,
          default_party_max: requireNumber(numberOrNull(partyMax), 'Largest party') ?? 10,
          booking_start_value: unitOrNull(start, startUnit) === null ? null : start,
          booking_start_unit: unitOrNull(start, startUnit),
          booking_cutoff_value: unitOrNull(cutoff, cutoffUnit) === null ? null : cutoff,
          booking_cutoff_unit: unitOrNull(cutoff, cutoffUnit),
        });
      }}
    >
      <Toggle label="Take table bookings" value={tables} onChange={setTables} />
      <div className="setup-form__grid">
        <NumberInput label="Booking length" unit="minutes" min={5} max={1440} step={5} value={duration} onChange={setDuration} />
        <NumberInput label="Smallest party" min={1} max={1000} value={partyMin} onChange={setPartyMin} />
        <NumberInput label="Largest party" min={1} max={1000} value={partyMax} onChange={setPartyMax} />
      </div>
      <fieldset className="setup-form__pair">
        <legend>Bookings open (how far ahead guests can book)</legend>
        <NumberInput label="How far ahead" min={0} max={100000} value={startValue} onChange={setStartValue} />
        <Choice label="Unit" value={startUnit} onChange={setStartUnit} options={UNITS} />
      </fieldset>
      <fieldset className="setup-form__pair">
        <legend>Bookings close (how long before the time)</legend>
        <NumberInput label="Cut-off" min={0} max={100000} value={cutoffValue} onChange={setCutoffValue} />
        <Choice label="Unit" value={cutoffUnit} onChange={setCutoffUnit} options={UNITS} />
      </fieldset>
    </SectionForm>
  );
}

function SmartDurations({ venueId, disabled }: { venueId: string; disabled: boolean }) {
  const params = { params: { path: { venueId } } };
  const settings = useQuery({
    queryKey: [...setupKey(venueId), 'smart-tables'],
    queryFn: () => call(api.GET('/api/my-venues/{venueId}/smart-tables', params)),
  });
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const value = enabled ?? settings.data?.duration_enabled ?? false;
  return (
    <SectionForm
      id="smart-durations"
      title="Smart durations"
      intro="Hold tables longer for larger parties, so a big group is not rushed."
      disabled={disabled}
      loading={!settings.data}
      save={async () => {
        await call(api.PUT('/api/my-venues/{venueId}/smart-tables', { ...params, body: { duration_enabled: value } }));
        await settings.refetch();
      }}
    >
      {settings.error && (
        <p className="error" role="alert">
          {messageOf(settings.error)}
        </p>
      )}
      <Toggle label="Longer stays for larger parties" value={value} onChange={setEnabled} />
    </SectionForm>
  );
}

function DoorSection({ venue, save, disabled }: SectionProps) {
  const [capacity, setCapacity] = useState(text(venue.backdoor_capacity));
  const [lastEntry, setLastEntry] = useState(text(venue.last_entry_time));
  const [checkIn, setCheckIn] = useState(text(venue.check_in_window_minutes));
  return (
    <SectionForm
      id="door"
      title="Door"
      disabled={disabled}
      save={() =>
        save({
          backdoor_capacity: requireNumber(numberOrNull(capacity), 'Door capacity'),
          last_entry_time: lastEntry || null,
          check_in_window_minutes: requireNumber(numberOrNull(checkIn), 'Check-in opens') ?? undefined,
        })
      }
    >
      <div className="setup-form__grid">
        <NumberInput label="Door capacity" unit="people" min={0} max={100000} value={capacity} onChange={setCapacity} />
        <TextInput label="Last entry time" type="time" value={lastEntry} onChange={setLastEntry} hint="Venue-local time" />
        <NumberInput
          label="Check-in opens"
          unit="minutes before"
          min={0}
          max={1440}
          value={checkIn}
          onChange={setCheckIn}
          hint="How early the door may check a booking in"
        />
      </div>
    </SectionForm>
  );
}

function GuestListSection({ venue, save, disabled }: SectionProps) {
  const [enabled, setEnabled] = useState(venue.guest_list_enabled);
  const [paid, setPaid] = useState(venue.paid_guest_list_enabled);
  const [plusOnes, setPlusOnes] = useState(text(venue.max_plus_ones));
  const [queueSkip, setQueueSkip] = useState(poundsText(venue.queue_skip_price));
  const [surgeAt, setSurgeAt] = useState(text(venue.surge_threshold));
  const [surgePrice, setSurgePrice] = useState(poundsText(venue.surge_price));
  return (
    <SectionForm
      id="guest-list"
      title="Guest list"
      disabled={disabled}
      save={() =>
        save({
          guest_list_enabled: enabled,
          paid_guest_list_enabled: paid,
          max_plus_ones: requireNumber(numberOrNull(plusOnes), 'Plus-ones') ?? 3,
          queue_skip_price: requireNumber(penceOrNull(queueSkip), 'Queue skip price'),
          surge_threshold: requireNumber(numberOrNull(surgeAt), 'Surge from'),
          surge_price: requireNumber(penceOrNull(surgePrice), 'Surge price'),
        })
      }
    >
      <Toggle label="Free guest list" value={enabled} onChange={setEnabled} />
      <Toggle label="Paid guest list" value={paid} onChange={setPaid} />
      <div className="setup-form__grid">
        <NumberInput label="Plus-ones per guest" min={0} max={100} value={plusOnes} onChange={setPlusOnes} />
        <NumberInput label="Queue skip price" unit="£" min={0} step={0.01} value={queueSkip} onChange={setQueueSkip} hint="Per person" />
        <NumberInput
          label="Surge from"
          unit="guests"
          min={0}
          value={surgeAt}
          onChange={setSurgeAt}
          hint="Once the list has this many, paid options cost the surge price"
        />
        <NumberInput label="Surge price" unit="£" min={0} step={0.01} value={surgePrice} onChange={setSurgePrice} hint="Per person" />
      </div>
    </SectionForm>
  );
}
