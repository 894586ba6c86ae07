import type { ComponentChildren } from 'preact';
import type { BaseConfig } from '../lib/config';
import { httpUrl, zoneNote } from '../lib/format';

/** The page frame: the venue's name and logo, the zone note, the flow, and the info cards the theme shows. */
export function Shell(props: { config: BaseConfig; heading: string; children: ComponentChildren; showsTimes?: boolean }) {
  const { venue, widget } = props.config;
  const note = props.showsTimes ? zoneNote(venue.timezone) : null;
  const detailed = widget.theme_mode !== 'minimal';
  const logo = widget.logo_url ?? venue.logo_url;
  return (
    <div class="mw-page">
      <header class="mw-header">
        {logo ? <img class="mw-logo" src={logo} alt="" width={48} height={48} /> : null}
        <div>
          <p class="mw-venue">{venue.name}</p>
          <h1 class="mw-title">{props.heading}</h1>
        </div>
      </header>
      {note ? <p class="mw-zone">{note}</p> : null}
      <main>{props.children}</main>
      {detailed ? <InfoCards config={props.config} /> : null}
    </div>
  );
}

function InfoCards({ config }: { config: BaseConfig }) {
  const { venue, widget } = config;
  const cards: ComponentChildren[] = [];
  if (widget.show_info_card && venue.address) {
    cards.push(
      <section class="mw-card" key="info">
        <h2>Where</h2>
        <p>{venue.address}</p>
        {widget.show_map ? (
          <p>
            <a
              href={`https://www.openstreetmap.org/search?query=${encodeURIComponent(venue.address)}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              Open the map<span class="mw-sr"> (opens in a new tab)</span>
            </a>
          </p>
        ) : null}
      </section>,
    );
  }
  if (widget.show_about && venue.description) {
    cards.push(
      <section class="mw-card" key="about">
        <h2>About</h2>
        <p>{venue.description}</p>
      </section>,
    );
  }
  if (widget.show_contact && (venue.phone || venue.email)) {
    cards.push(
      <section class="mw-card" key="contact">
        <h2>Contact</h2>
        {venue.phone ? (
          <p>
            Phone: <a href={`tel:${venue.phone.replace(/\s+/g, '')}`}>{venue.phone}</a>
          </p>
        ) : null}
        {venue.email ? (
          <p>
            Email: <a href={`mailto:${venue.email}`}>{venue.email}</a>
          </p>
        ) : null}
      </section>,
    );
  }
  const website = httpUrl(venue.website);
  if (widget.show_tandc && website) {
    cards.push(
      <section class="mw-card" key="terms">
        <h2>Terms</h2>
        <p>
          Booking terms are on{' '}
          <a href={website} target="_blank" rel="noopener noreferrer">
            the venue's website<span class="mw-sr"> (opens in a new tab)</span>
          </a>
          .
        </p>
      </section>,
    );
  }
  return cards.length > 0 ? <aside class="mw-cards">{cards}</aside> : null;
}

/** A polite live region: what changed after an action (results found, errors), read out by screen readers. */
export function LiveStatus(props: { message: string }) {
  return (
    <p class="mw-status" role="status" aria-live="polite">
      {props.message}
    </p>
  );
}

/** An error that concerns the whole step (not one field): announced, and focusable so it can be reached. */
export function Alert(props: { message: string | null; action?: { label: string; run: () => void } }) {
  if (!props.message) return null;
  return (
    <div class="mw-alert" role="alert">
      <p>
        <span aria-hidden="true">⚠ </span>
        {props.message}
      </p>
      {props.action ? (
        <button type="button" class="mw-secondary" onClick={props.action.run}>
          {props.action.label}
        </button>
      ) : null}
    </div>
  );
}
