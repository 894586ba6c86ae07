/**
 * An image upload cropped in the browser: the chosen picture is drawn onto a canvas at the ratio and size
 * the venue shows it at (zoom and position by sliders, so it works from the keyboard), previewed, and only
 * the cropped canvas is sent, as a data URL within the route's size limit.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { Outcome } from '../../shell/Notice';
import { messageOf, uploadSrc } from './data';

export interface ImageFieldProps {
  id: string;
  title: string;
  /** What the ratio means to the operator, e.g. "square" or "16:9, wide". */
  shape: string;
  width: number;
  height: number;
  type: 'image/png' | 'image/jpeg';
  /** The route's limit on what is sent, in bytes of the image. */
  maxBytes: number;
  currentUrl: string | null;
  upload: (dataUrl: string) => Promise<void>;
  remove?: () => Promise<void>;
  disabled?: boolean;
}

interface Crop {
  zoom: number;
  x: number;
  y: number;
}

/** The source rectangle of `image` shown at `ratio`, zoomed by `zoom` and placed at `x`, `y` (0–1). */
export function cropRect(image: { width: number; height: number }, ratio: number, crop: Crop) {
  const fitWidth = image.width / image.height > ratio ? image.height * ratio : image.width;
  const w = fitWidth / crop.zoom;
  const h = w / ratio;
  return { sx: (image.width - w) * crop.x, sy: (image.height - h) * crop.y, w, h };
}

/** Bytes a base64 data URL carries. */
const bytesOf = (dataUrl: string) => Math.floor(((dataUrl.length - dataUrl.indexOf(',') - 1) * 3) / 4);

export function ImageField(props: ImageFieldProps) {
  const [image, setImage] = useState<ImageBitmap | null>(null);
  const [crop, setCrop] = useState<Crop>({ zoom: 1, x: 0.5, y: 0.5 });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  const file = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const target = canvas.current;
    if (!image || !target) return;
    const { sx, sy, w, h } = cropRect(image, props.width / props.height, crop);
    const context = target.getContext('2d')!;
    context.clearRect(0, 0, props.width, props.height);
    if (props.type === 'image/jpeg') {
      // JPEG has no transparency: a transparent picture gets a white ground, not black.
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, props.width, props.height);
    }
    context.drawImage(image, sx, sy, w, h, 0, 0, props.width, props.height);
  }, [image, crop, props.width, props.height, props.type]);

  async function choose(chosen: File | undefined) {
    if (!chosen) return;
    setMessage(null);
    try {
      setImage(await createImageBitmap(chosen));
      setCrop({ zoom: 1, x: 0.5, y: 0.5 });
    } catch {
      setMessage({ ok: false, text: 'That file is not a picture this browser can read: choose a PNG, JPEG, WebP or GIF.' });
    }
  }

  function reset() {
    setImage(null);
    if (file.current) file.current.value = '';
  }

  async function send() {
    if (!canvas.current) return;
    const data = canvas.current.toDataURL(props.type, 0.88);
    if (bytesOf(data) > props.maxBytes) {
      setMessage({
        ok: false,
        text: `The cropped picture is over ${Math.round(props.maxBytes / 1024)} KB: zoom in or choose a simpler picture.`,
      });
      return;
    }
    setBusy(true);
    try {
      await props.upload(data);
      setMessage({ ok: true, text: `${props.title} saved.` });
      reset();
    } catch (error) {
      setMessage({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await props.remove!();
      setMessage({ ok: true, text: `${props.title} removed.` });
    } catch (error) {
      setMessage({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }

  const slider = (key: keyof Crop, label: string, min: number, max: number, step: number) => (
    <label className="crop__slider">
      <span>{label}</span>
      <input
        type="range"
        min={min}
        max={max}
        step={step}
        value={crop[key]}
        onChange={(e) => setCrop((c) => ({ ...c, [key]: Number(e.target.value) }))}
      />
    </label>
  );

  return (
    <div className="image-field" aria-labelledby={`${props.id}-title`} role="group">
      <h3 id={`${props.id}-title`}>
        {props.title}{' '}
        <span className="muted">
          ({props.shape}, shown at {props.width}×{props.height})
        </span>
      </h3>
      <div className="image-field__body">
        {image ? (
          <div className="crop">
            <canvas
              ref={canvas}
              width={props.width}
              height={props.height}
              className="crop__canvas"
              style={{ aspectRatio: `${props.width} / ${props.height}` }}
              role="img"
              aria-label={`Preview of the cropped ${props.title.toLowerCase()}`}
            />
            <div className="crop__controls">
              {slider('zoom', 'Zoom', 1, 4, 0.05)}
              {slider('x', 'Left to right', 0, 1, 0.01)}
              {slider('y', 'Top to bottom', 0, 1, 0.01)}
              <div className="actions">
                <Button className="button button--primary" isDisabled={busy} onPress={() => void send()}>
                  Upload {props.title.toLowerCase()}
                </Button>
                <Button className="button button--quiet" onPress={reset}>
                  Cancel
                </Button>
              </div>
            </div>
          </div>
        ) : (
          <>
            {props.currentUrl ? (
              <img
                src={uploadSrc(props.currentUrl) ?? undefined}
                alt={`Current ${props.title.toLowerCase()}`}
                className="image-field__current"
                style={{ aspectRatio: `${props.width} / ${props.height}` }}
              />
            ) : (
              <p className="image-field__empty" style={{ aspectRatio: `${props.width} / ${props.height}` }}>
                No {props.title.toLowerCase()} yet
              </p>
            )}
            {!props.disabled && (
              <div className="actions">
                <label className="button file-button">
                  Choose a picture
                  <input
                    ref={file}
                    type="file"
                    accept="image/png,image/jpeg,image/webp,image/gif"
                    className="visually-hidden"
                    aria-label={`Choose a ${props.title.toLowerCase()} picture`}
                    onChange={(e) => void choose(e.target.files?.[0])}
                  />
                </label>
                {props.remove && props.currentUrl && (
                  <Button className="button button--danger" isDisabled={busy} onPress={() => void remove()}>
                    Remove
                  </Button>
                )}
              </div>
            )}
          </>
        )}
      </div>
      <Outcome result={message} />
    </div>
  );
}
