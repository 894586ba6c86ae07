/** The booking's door QR: short-lived, so fetched again before `expires_in_ms` runs out. */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../lib/api';

export function BookingQr(props: { venueId: string; bookingId: string }) {
  const [image, setImage] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const load = async () => {
      try {
        const qr = await api<{ qr_code: string; expires_in_ms: number }>(
          `/api/public/venues/${encodeURIComponent(props.venueId)}/booking/${encodeURIComponent(props.bookingId)}/qr`,
        );
        if (stopped) return;
        setImage(qr.qr_code);
        setFailed(false);
        // Renewed a little before it expires, at most every 10 s.
        timer = setTimeout(() => void load(), Math.max(10_000, qr.expires_in_ms - 15_000));
      } catch {
        if (stopped) return;
        setFailed(true);
        timer = setTimeout(() => void load(), 15_000);
      }
    };
    void load();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [props.venueId, props.bookingId]);
  if (failed && !image) return <p class="mw-hint">Your entry code will appear here when you are back online.</p>;
  if (!image) return <p class="mw-hint">Loading your entry code…</p>;
  return <img class="mw-qr" src={image} width={200} height={200} alt="Entry QR code for this booking: show it at the door" />;
}
