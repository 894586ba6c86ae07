import { render } from 'preact';
import '../styles.css';
import { ManageApp } from '../manage/ManageApp';
import { WaitlistPage } from '../manage/WaitlistPage';

const root = document.getElementById('app')!;
root.textContent = '';
// One page for the guest's links: a booking's manage token, or a waitlist entry's (`wl1.`).
const token = new URLSearchParams(location.search).get('token') ?? '';
render(token.startsWith('wl1.') ? <WaitlistPage token={token} /> : <ManageApp />, root);
