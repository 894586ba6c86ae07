/** The brand logo: choose an image, see it beside the current one, upload it (`branding-logo`, max 2 MB). */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, call } from '../../api/client';
import { problemOf, ProblemText, type Problem } from './data';

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });

/**
 * An upload's address on this origin: the API names uploads under the public base URL, which may be
 * another host than the one serving the portal (whose policy loads images from itself only).
 */
function local(url: string): string {
  const parsed = new URL(url, window.location.href);
  return parsed.pathname.startsWith('/uploads/') ? parsed.pathname : url;
}

export function LogoField(props: {
  venueId: string;
  logoUrl: string | null;
  /** The shown widget's own logo, which widgets show instead of the brand logo. */
  widgetLogo: string | null;
  writable: boolean;
  onUploaded: () => void;
}) {
  const client = useQueryClient();
  const [chosen, setChosen] = useState<File | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [note, setNote] = useState('');
  // Bumped after an upload: a fresh file input, so the uploaded file is not still shown as chosen.
  const [inputKey, setInputKey] = useState(0);

  useEffect(() => {
    if (!chosen) return setShown(null);
    const url = URL.createObjectURL(chosen);
    setShown(url);
    return () => URL.revokeObjectURL(url);
  }, [chosen]);

  async function upload() {
    if (!chosen) return;
    setBusy(true);
    setProblem(null);
    let data: string;
    try {
      data = await readAsDataUrl(chosen);
    } catch {
      setProblem({ text: 'That file could not be read: choose it again.' });
      setBusy(false);
      return;
    }
    try {
      await call(api.POST('/api/my-venues/{venueId}/branding-logo', { params: { path: { venueId: props.venueId } }, body: { data } }));
      await client.invalidateQueries({ queryKey: ['branding', props.venueId] });
      setChosen(null);
      setInputKey((n) => n + 1);
      setNote('Logo uploaded: the widgets show it now.');
      props.onUploaded();
    } catch (caught) {
      setProblem(problemOf(caught));
    }
    setBusy(false);
  }

  return (
    <section className="panel branding__section" aria-labelledby="logo-title">
      <h2 id="logo-title">Logo</h2>
      <div className="logo">
        <figure className="logo__figure">
          {props.logoUrl ? (
            <img src={local(props.logoUrl)} alt="Current logo" width={72} height={72} />
          ) : (
            <span className="logo__empty">None</span>
          )}
          <figcaption className="muted">Current</figcaption>
        </figure>
        {shown && (
          <figure className="logo__figure">
            <img src={shown} alt="Chosen logo, not uploaded yet" width={72} height={72} />
            <figcaption className="muted">Chosen</figcaption>
          </figure>
        )}
        <div className="logo__controls">
          <div className="field">
            <label htmlFor="logo-file">Choose a logo</label>
            <input
              key={inputKey}
              id="logo-file"
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              disabled={!props.writable || busy}
              aria-describedby="logo-hint"
              onChange={(event) => {
                setChosen(event.target.files?.[0] ?? null);
                setProblem(null);
                setNote('');
              }}
            />
            <span className="muted" id="logo-hint">
              PNG, JPEG, WebP or GIF, at most 2 MB; shown square at the top of every widget.
              {!props.logoUrl && ' Without one, the widgets show the venue’s logo.'}
            </span>
          </div>
          <Button className="button button--primary" isDisabled={!chosen || busy || !props.writable} onPress={() => void upload()}>
            {busy ? 'Uploading…' : 'Upload logo'}
          </Button>
        </div>
      </div>
      {props.widgetLogo && <p className="notice">This widget has a logo of its own, which it shows instead of the brand logo.</p>}
      <ProblemText problem={problem} />
      <p role="status" className="branding__status">
        {note}
      </p>
    </section>
  );
}
