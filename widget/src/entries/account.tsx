import { render } from 'preact';
import '../styles.css';
import { AccountApp } from '../account/AccountApp';

const root = document.getElementById('app')!;
root.textContent = '';
render(<AccountApp />, root);
