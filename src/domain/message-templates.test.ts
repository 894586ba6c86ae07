import { describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES, MESSAGE_KINDS, renderTemplate, templateError } from './message-templates.js';

describe('message templates', () => {
  it('accepts every default and renders its placeholders', () => {
    for (const kind of MESSAGE_KINDS) expect(templateError(kind, DEFAULT_TEMPLATES[kind])).toBeNull();
    expect(renderTemplate('Hi {guest_name}, {{see}} you at {time}.', { guest_name: 'Ann', time: '19:00' })).toBe(
      'Hi Ann, {see} you at 19:00.',
    );
  });

  it('refuses unknown placeholders, lone braces, empty and long bodies', () => {
    expect(templateError('reminder', 'Hi {name}')).toMatch(/\{name\}/);
    expect(templateError('cancellation', 'Confirm {confirm_url}')).toMatch(/cancellation/);
    expect(templateError('reminder', 'Hi {guest_name')).toMatch(/"\{"/);
    expect(templateError('reminder', 'Hi {Guest}')).toMatch(/"\{"/);
    expect(templateError('reminder', 'Hi }')).toMatch(/"\}"/);
    expect(templateError('reminder', ' ')).toMatch(/empty/);
    expect(templateError('reminder', 'x'.repeat(481))).toMatch(/480/);
  });
});
