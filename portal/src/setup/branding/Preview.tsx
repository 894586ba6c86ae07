/**
 * The live preview: the real widget page in a frame. The portal and the widgets are served by the same
 * application, so the frame is same-origin: unsaved colours, font and custom CSS are applied to it at
 * once (debounced) as a stylesheet standing in for the saved `theme.css`, and after a save the page is
 * loaded again with what guests now get.
 */
import { useEffect, useRef } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { KINDS, type Kind, type WidgetSettings } from './data';
import { themeCss, type Look } from './look';

const DRAFT_ID = 'maitred-portal-draft';
const DEBOUNCE_MS = 250;

/** Puts the draft stylesheet in place of the saved theme in the widget's document, or takes it away. */
function applyDraft(frame: HTMLIFrameElement | null, css: string | null) {
  const doc = frame?.contentDocument;
  if (!doc?.head) return;
  const theme = doc.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href$="/theme.css"]');
  let style = doc.getElementById(DRAFT_ID);
  if (css === null) {
    style?.remove();
    if (theme) theme.disabled = false;
    return;
  }
  if (!style) {
    style = doc.createElement('style');
    style.id = DRAFT_ID;
    doc.head.append(style);
  }
  style.textContent = css;
  if (theme) theme.disabled = true;
}

export function Preview(props: {
  kind: Kind;
  onKind: (kind: Kind) => void;
  settings: WidgetSettings;
  draft: Look | null;
  width: string;
  reloads: number;
  /** A venue in draft is not public yet: its widget pages are closed to guests, and so to the preview. */
  venueInDraft: boolean;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const widget = props.settings.data[props.kind];
  const label = KINDS.find((k) => k.key === props.kind)!.label;
  const css = props.draft ? themeCss(props.draft, props.width) : null;
  // The latest draft, for a page that finishes loading after it changed.
  const latest = useRef(css);
  latest.current = css;

  useEffect(() => {
    const timer = setTimeout(() => applyDraft(frame.current, css), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [css]);

  return (
    <section className="panel branding__section" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview</h2>
      <RadioGroup className="preview__kinds" orientation="horizontal" value={props.kind} onChange={(value) => props.onKind(value as Kind)}>
        <Label className="branding__label">Widget</Label>
        <div className="segmented">
          {KINDS.map((k) => (
            <Radio key={k.key} value={k.key} className="segmented__item">
              {k.label}
            </Radio>
          ))}
        </div>
      </RadioGroup>
      {props.venueInDraft ? (
        <p className="notice preview__off">
          The venue is in draft, so its widgets show guests a closed page. The preview shows the {label.toLowerCase()} widget once the venue
          goes live (on the checklist); the look you save here is used from then on.
        </p>
      ) : widget.enabled ? (
        <>
          <p className="muted preview__note">
            {props.draft ? 'Showing your unsaved changes.' : 'Showing the widget as guests see it.'} Bookings made here are real.
          </p>
          <iframe
            key={`${widget.public_id}-${props.reloads}`}
            ref={frame}
            className="preview__frame"
            title={`Preview of the ${label.toLowerCase()} widget`}
            // Same origin as the portal (the address the settings give may be the public one).
            src={`/widget/${encodeURIComponent(widget.public_id)}`}
            onLoad={() => applyDraft(frame.current, latest.current)}
          />
        </>
      ) : (
        <p className="notice preview__off">
          The {label.toLowerCase()} widget is off, so guests see a closed page. Switch it on under Widgets to preview it.
        </p>
      )}
    </section>
  );
}
