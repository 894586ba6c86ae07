import { render } from 'preact';
import '../styles.css';
import { ManageApp } from '../manage/ManageApp';

const root = document.getElementById('app')!;
root.textContent = '';
render(<ManageApp />, root);
