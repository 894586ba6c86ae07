/** What the branding screen's parts share: the widget kinds, the two reads, and errors in words. */
import { useQuery } from '@tanstack/react-query';
import { api, ApiError, call } from '../../api/client';

export const KINDS = [
  { key: 'bookings', label: 'Bookings' },
  { key: 'events', label: 'Events' },
  { key: 'vouchers', label: 'Gift vouchers' },
  { key: 'combo', label: 'Combined (tabs)' },
] as const;
export type Kind = (typeof KINDS)[number]['key'];

export interface Problem {
  text: string;
  ref?: string;
}

export const problemOf = (caught: unknown): Problem =>
  caught instanceof ApiError ? { text: caught.message, ref: caught.requestId } : { text: 'Could not reach the server: try again' };

export function ProblemText({ problem, id }: { problem: Problem | null; id?: string }) {
  if (!problem) return null;
  return (
    <p className="error" role="alert" id={id}>
      {problem.text}
      {problem.ref && <span className="muted"> (request {problem.ref})</span>}
    </p>
  );
}

export function useBranding(venueId: string) {
  return useQuery({
    queryKey: ['branding', venueId],
    queryFn: () => call(api.GET('/api/my-venues/{venueId}/branding', { params: { path: { venueId } } })),
  });
}

export function useWidgetSettings(venueId: string) {
  return useQuery({
    queryKey: ['widget-settings', venueId],
    queryFn: () => call(api.GET('/api/my-venues/{venueId}/widget-settings', { params: { path: { venueId } } })),
  });
}

export type WidgetSettings = NonNullable<ReturnType<typeof useWidgetSettings>['data']>;
