import type { ComponentType } from 'preact';
import { render } from 'preact';
import '../styles.css';
import { pageData, type BaseConfig } from './config';
import { startEmbed } from './embed';

/** Starts a widget page: reads its inlined config, joins the host page's embed handshake, renders. */
export function mount<C extends BaseConfig>(App: ComponentType<{ config: C; publicId: string; venueId: string; today: string }>) {
  const data = pageData<C>();
  startEmbed(data.public_id);
  const root = document.getElementById('app')!;
  root.textContent = '';
  render(<App config={data.config} publicId={data.public_id} venueId={data.venue_id} today={data.today} />, root);
}
