/**
 * The door: check a guest in by their booking's QR code (the device camera, with BarcodeDetector where the
 * browser has it and jsQR otherwise, or a photo of the code) or by typing the reference; or turn them
 * away with a reason and a refund choice.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Checkbox, Input, Label, TextField } from 'react-aria-components';
import { api, ApiError, call } from '../api/client';
import { Outcome } from '../shell/Notice';

type Found = { token?: string; reference?: string };

async function decode(source: ImageBitmap | HTMLVideoElement, width: number, height: number): Promise<string | null> {
  const Detector = (globalThis as { BarcodeDetector?: new (o: object) => { detect(s: unknown): Promise<{ rawValue: string }[]> } })
    .BarcodeDetector;
  if (Detector) {
    try {
      const codes = await new Detector({ formats: ['qr_code'] }).detect(source);
      if (codes[0]) return codes[0].rawValue;
    } catch {
      /* fall back to jsQR below */
    }
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(source, 0, 0, width, height);
  const { default: jsQR } = await import('jsqr');
  const image = context.getImageData(0, 0, width, height);
  return jsQR(image.data, width, height)?.data ?? null;
}

export default function DoorPage() {
  const [found, setFound] = useState<Found | null>(null);
  const [reference, setReference] = useState('');
  const [result, setResult] = useState<{ text: string; ok: boolean; ref?: string } | null>(null);
  const [camera, setCamera] = useState(false);
  const [reason, setReason] = useState('');
  const [refund, setRefund] = useState(true);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (!camera) return;
    let stream: MediaStream | undefined;
    let stop = false;
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
        const el = video.current!;
        el.srcObject = stream;
        await el.play();
        while (!stop) {
          if (el.videoWidth) {
            const token = await decode(el, el.videoWidth, el.videoHeight);
            if (token) {
              setCamera(false);
              choose({ token });
              return;
            }
          }
          await new Promise((r) => setTimeout(r, 250));
        }
      } catch {
        setResult({ text: 'The camera is not available: choose a photo of the code or type the reference.', ok: false });
        setCamera(false);
      }
    })();
    return () => {
      stop = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [camera]);

  function choose(what: Found) {
    setFound(what);
    setResult(null);
  }

  async function checkIn(what: Found) {
    try {
      if (what.token) {
        const answer = await call(api.POST('/api/check-in', { body: { qr_token: what.token } }));
        setResult({ text: `Checked in: ${answer.guest_name ?? 'Guest'}, ${answer.guest_count} covers`, ok: true });
        setFound(null);
      } else if (what.reference) {
        const answer = await call(
          api.PATCH('/api/bookings/{id}/status', { params: { path: { id: what.reference } }, body: { status: 'checked_in' } }),
        );
        setResult({ text: `Checked in: ${answer.booking.guest_name ?? 'Guest'}, ${answer.booking.guest_count} covers`, ok: true });
        setFound(null);
        setReference('');
      }
    } catch (caught) {
      setResult({
        text: caught instanceof ApiError ? caught.message : 'Could not reach the server',
        ok: false,
        ref: caught instanceof ApiError ? caught.requestId : undefined,
      });
    }
  }

  async function fromFile(file: File) {
    const bitmap = await createImageBitmap(file);
    const token = await decode(bitmap, bitmap.width, bitmap.height);
    if (!token) setResult({ text: 'No QR code found in that picture.', ok: false });
    else choose({ token });
  }

  async function reject() {
    if (!found) return;
    try {
      const answer = await call(
        api.POST('/api/door-reject', {
          body: { ...(found.token ? { qr_token: found.token } : { booking_id: found.reference }), reason: reason || undefined, refund },
        }),
      );
      setResult({ text: `Turned away: ${answer.booking.guest_name ?? 'Guest'}${refund ? ' (refunded)' : ''}`, ok: true });
      setFound(null);
      setReference('');
      setReason('');
    } catch (caught) {
      setResult({
        text: caught instanceof ApiError ? caught.message : 'Could not reach the server',
        ok: false,
        ref: caught instanceof ApiError ? caught.requestId : undefined,
      });
    }
  }

  return (
    <main className="page door" id="main">
      <h1>Door</h1>
      <section className="panel" aria-labelledby="scan-title">
        <h2 id="scan-title">Scan a booking</h2>
        <div className="actions">
          <Button className="button button--primary" onPress={() => setCamera((c) => !c)}>
            {camera ? 'Stop camera' : 'Scan with camera'}
          </Button>
          <label className="button file-button">
            Choose a QR image
            <input
              type="file"
              accept="image/*"
              className="visually-hidden"
              onChange={(e) => e.target.files?.[0] && void fromFile(e.target.files[0])}
            />
          </label>
        </div>
        {camera && <video ref={video} className="door__video" muted playsInline aria-label="Camera preview" />}
        <form
          className="row-fields"
          onSubmit={(e) => {
            e.preventDefault();
            if (reference.trim()) choose({ reference: reference.trim() });
          }}
        >
          <TextField className="field" value={reference} onChange={setReference}>
            <Label>Booking reference</Label>
            <Input placeholder="bkg_…" />
          </TextField>
          <Button type="submit" className="button">
            Find
          </Button>
        </form>
      </section>
      <Outcome result={result}>{result?.ref && <small className="toast__ref">Ref: {result.ref}</small>}</Outcome>
      {found && (
        <section className="panel" aria-labelledby="found-title">
          <h2 id="found-title">{found.token ? 'Scanned booking' : `Booking ${found.reference}`}</h2>
          <div className="actions">
            <Button className="button button--primary" onPress={() => void checkIn(found)} autoFocus>
              Check in
            </Button>
          </div>
          <h3>Turn away</h3>
          <TextField className="field" value={reason} onChange={setReason}>
            <Label>Reason</Label>
            <Input />
          </TextField>
          <Checkbox isSelected={refund} onChange={setRefund} className="checkbox">
            <span className="checkbox__box" aria-hidden="true" />
            Refund what the guest paid
          </Checkbox>
          <Button className="button button--danger" onPress={() => void reject()}>
            Turn away
          </Button>
        </section>
      )}
    </main>
  );
}
