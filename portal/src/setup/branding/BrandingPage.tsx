/**
 * Branding and widgets (`/setup/branding?venue=`): the venue's colours, font, logo and custom CSS with a
 * live preview of the real widget page, each widget kind switched on or off, and the two embed snippets.
 * Colours, font and custom CSS are a draft until saved (the preview shows the draft at once); the logo
 * and the switches are saved as they are chosen.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Button, Label, Radio, RadioGroup, Switch, TextArea, TextField } from 'react-aria-components';
import { api, call } from '../../api/client';
import { useCan, useCurrentVenue } from '../../shell/account';
import { SetupNav, SetupNeedsVenue } from '../SetupNav';
import { KINDS, problemOf, ProblemText, useBranding, useWidgetSettings, type Kind, type Problem, type WidgetSettings } from './data';
import { Embed } from './Embed';
import { contrastChecks, FONTS, longHex, type Look } from './look';
import { LogoField } from './LogoField';
import { Preview } from './Preview';
import './branding.css';

const CUSTOM_CSS_MAX = 20000;

export default function BrandingPage() {
  const venue = useCurrentVenue();
  if (!venue) return <SetupNeedsVenue title="Branding and widgets" />;
  // A fresh form per venue: nothing typed for one venue is saved to another.
  return <BrandingScreen key={venue.id} venueId={venue.id} venueName={venue.name} venueInDraft={venue.status === 'draft'} />;
}

function BrandingScreen({ venueId, venueName, venueInDraft }: { venueId: string; venueName: string; venueInDraft: boolean }) {
  const can = useCan();
  const writable = can('venues.branding', 'write');
  const branding = useBranding(venueId);
  const settings = useWidgetSettings(venueId);
  const client = useQueryClient();

  const [draft, setDraft] = useState<Look | null>(null);
  const saved = useMemo<Look | null>(
    () =>
      branding.data && settings.data
        ? {
            accent_color: longHex(branding.data.accent_color) ?? '#b08d57',
            bg_color: longHex(branding.data.bg_color) ?? '#ffffff',
            text_color: longHex(branding.data.text_color) ?? '#1f2933',
            font_key: branding.data.font_key,
            custom_css: settings.data.theme.custom_css,
          }
        : null,
    [branding.data, settings.data],
  );
  useEffect(() => {
    if (saved && !draft) setDraft(saved);
  }, [saved, draft]);

  const [kind, setKind] = useState<Kind>('bookings');
  // Bumped after every save: the preview loads the widget page again with what the server now serves.
  const [reloads, setReloads] = useState(0);
  const [saving, setSaving] = useState(false);
  const [lookProblem, setLookProblem] = useState<Problem | null>(null);
  const [cssProblem, setCssProblem] = useState<Problem | null>(null);
  const [savedNote, setSavedNote] = useState('');

  const loadError = branding.error ?? settings.error;
  if (loadError)
    return (
      <main className="page branding" id="main">
        <SetupNav venueId={venueId} />
        <h1>Branding and widgets</h1>
        <ProblemText problem={problemOf(loadError)} />
      </main>
    );
  if (!draft || !saved || !settings.data)
    return (
      <main className="page branding" id="main">
        <SetupNav venueId={venueId} />
        <h1>Branding and widgets</h1>
        <p>Loading…</p>
      </main>
    );

  const look = draft;
  const dirty = JSON.stringify(look) !== JSON.stringify(saved);
  const set = (change: Partial<Look>) => {
    setDraft({ ...look, ...change });
    setSavedNote('');
  };
  const reload = () => setReloads((n) => n + 1);

  async function save() {
    setSaving(true);
    setLookProblem(null);
    setCssProblem(null);
    setSavedNote('');
    try {
      await call(
        api.PUT('/api/my-venues/{venueId}/branding', {
          params: { path: { venueId } },
          body: {
            accent_color: look.accent_color,
            bg_color: look.bg_color,
            text_color: look.text_color,
            font_key: FONTS.find((f) => f.key === look.font_key)?.key,
          },
        }),
      );
    } catch (caught) {
      setLookProblem(problemOf(caught));
      setSaving(false);
      return;
    }
    try {
      await call(
        api.PUT('/api/my-venues/{venueId}/widget-theme', { params: { path: { venueId } }, body: { custom_css: look.custom_css } }),
      );
      setSavedNote('Saved: the widgets show the new look now.');
    } catch (caught) {
      setCssProblem(problemOf(caught));
      setSavedNote('Colours and font saved; the custom CSS was not.');
    }
    await client.invalidateQueries({ queryKey: ['branding', venueId] });
    await client.invalidateQueries({ queryKey: ['widget-settings', venueId] });
    setSaving(false);
    reload();
  }

  const checks = contrastChecks(look);
  const weak = checks.filter((c) => c.ratio < c.needed);
  const widgets = settings.data.data;

  return (
    <main className="page branding" id="main">
      <SetupNav venueId={venueId} />
      <header className="branding__head">
        <h1>
          Branding and widgets <span className="muted">· {venueName}</span>
        </h1>
        <p className="muted">
          How the booking, events and gift voucher widgets look on your site, which are on, and the code to embed them.
        </p>
        {!writable && (
          <p className="notice">Your role may look at these settings but not change them (it lacks Branding and widgets: write).</p>
        )}
      </header>

      <div className="branding__columns">
        <div className="branding__settings">
          <section className="panel branding__section" aria-labelledby="look-title">
            <h2 id="look-title">Look</h2>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void save();
              }}
            >
              <fieldset className="branding__colours" disabled={!writable}>
                <legend>Colours</legend>
                {(
                  [
                    ['accent_color', 'Accent', 'Buttons, selected times and outlines'],
                    ['bg_color', 'Background', 'The page behind everything'],
                    ['text_color', 'Text', 'Headings and body text'],
                  ] as const
                ).map(([key, label, hint]) => (
                  <div className="colour" key={key}>
                    <input
                      id={`colour-${key}`}
                      type="color"
                      value={look[key]}
                      onChange={(event) => set({ [key]: event.target.value })}
                      aria-describedby={`colour-${key}-hint`}
                    />
                    <label htmlFor={`colour-${key}`}>
                      {label} <code>{look[key]}</code>
                    </label>
                    <span className="muted colour__hint" id={`colour-${key}-hint`}>
                      {hint}
                    </span>
                  </div>
                ))}
              </fieldset>
              <div aria-live="polite">
                {weak.length > 0 ? (
                  <div className="notice notice--warn">
                    <strong>
                      <span aria-hidden="true">⚠ </span>Low contrast:
                    </strong>{' '}
                    some guests will struggle to read the widget.
                    <ul>
                      {weak.map((c) => (
                        <li key={c.name}>
                          {c.name}: {c.ratio.toFixed(1)}:1, needs at least {c.needed}:1
                        </li>
                      ))}
                    </ul>
                  </div>
                ) : (
                  <p className="muted contrast-ok">
                    <span aria-hidden="true">✓ </span>The colours have enough contrast (WCAG AA).
                  </p>
                )}
              </div>

              <RadioGroup
                className="branding__fonts"
                value={look.font_key}
                onChange={(value) => set({ font_key: value })}
                isDisabled={!writable}
              >
                <Label className="branding__label">Font</Label>
                <div className="branding__font-options">
                  {FONTS.map((font) => (
                    <Radio key={font.key} value={font.key} className="font-option" style={{ fontFamily: font.stack }}>
                      {font.label}
                    </Radio>
                  ))}
                </div>
              </RadioGroup>

              <TextField
                className="field branding__css"
                value={look.custom_css}
                onChange={(value) => set({ custom_css: value })}
                isDisabled={!writable}
                isInvalid={Boolean(cssProblem)}
                // The server's refusal marks the field; it must not block the next save in the browser.
                validationBehavior="aria"
              >
                <Label>Custom CSS</Label>
                <TextArea rows={6} spellCheck={false} aria-describedby="css-hint css-problem" />
                <span className="muted" id="css-hint">
                  Applied after the theme on every widget. {look.custom_css.length.toLocaleString('en-GB')} of{' '}
                  {CUSTOM_CSS_MAX.toLocaleString('en-GB')} characters.
                </span>
              </TextField>
              <ProblemText problem={cssProblem} id="css-problem" />
              <ProblemText problem={lookProblem} />

              <div className="branding__actions">
                <Button type="submit" className="button button--primary" isDisabled={!writable || saving || !dirty}>
                  {saving ? 'Saving…' : 'Save look'}
                </Button>
                <Button className="button" isDisabled={!dirty || saving} onPress={() => setDraft(saved)}>
                  Discard changes
                </Button>
                <span role="status" className="branding__status">
                  {savedNote || (dirty ? 'Unsaved changes: the preview shows them, guests do not see them yet.' : '')}
                </span>
              </div>
            </form>
          </section>

          <LogoField
            venueId={venueId}
            logoUrl={branding.data?.logo_url ?? null}
            widgetLogo={widgets[kind].logo_url}
            writable={writable}
            onUploaded={reload}
          />

          <WidgetSwitches venueId={venueId} settings={settings.data} writable={writable} onChanged={reload} />
        </div>

        <div className="branding__preview">
          <Preview
            kind={kind}
            onKind={setKind}
            settings={settings.data}
            draft={dirty ? look : null}
            width={settings.data.theme.width}
            reloads={reloads}
            venueInDraft={venueInDraft}
          />
          <Embed kind={kind} widget={widgets[kind]} />
        </div>
      </div>
    </main>
  );
}

function WidgetSwitches(props: { venueId: string; settings: WidgetSettings; writable: boolean; onChanged: () => void }) {
  const { venueId, settings } = props;
  const client = useQueryClient();
  const [busy, setBusy] = useState<Kind | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [note, setNote] = useState('');

  async function toggle(kind: Kind, label: string, enabled: boolean) {
    setBusy(kind);
    setProblem(null);
    setNote('');
    try {
      await call(
        api.PUT('/api/my-venues/{venueId}/widget-settings/{type}', { params: { path: { venueId, type: kind } }, body: { enabled } }),
      );
      await client.invalidateQueries({ queryKey: ['widget-settings', venueId] });
      setNote(`${label} widget switched ${enabled ? 'on' : 'off'}.`);
      props.onChanged();
    } catch (caught) {
      setProblem(problemOf(caught));
    }
    setBusy(null);
  }

  return (
    <section className="panel branding__section" aria-labelledby="widgets-title">
      <h2 id="widgets-title">Widgets</h2>
      <p className="muted">A widget that is off shows guests a closed page, wherever it is embedded.</p>
      <ul className="switches">
        {KINDS.map(({ key, label }) => {
          const on = settings.data[key].enabled;
          return (
            <li key={key}>
              <Switch
                className="switch"
                isSelected={on}
                isDisabled={!props.writable || busy !== null}
                onChange={(value) => void toggle(key, label, value)}
              >
                <span className="switch__track" aria-hidden="true">
                  <span className="switch__thumb" />
                </span>
                <span>{label} widget</span>
                <span className={on ? 'switch__state switch__state--on' : 'switch__state'} aria-hidden="true">
                  {on ? 'On' : 'Off'}
                </span>
              </Switch>
              {key === 'vouchers' && !settings.vouchers_enabled && (
                <span className="muted switch__hint">Gift vouchers are off in the voucher settings: turn them on first.</span>
              )}
            </li>
          );
        })}
      </ul>
      <ProblemText problem={problem} />
      <p role="status" className="branding__status">
        {note}
      </p>
    </section>
  );
}
