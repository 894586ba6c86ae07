/** Mail templates: plain text and escaped HTML from the same content, signed with the venue's name. */
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderMail, venueMessage } from './templates.js';

describe('escapeHtml', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['Tom & Jerry', 'Tom &amp; Jerry'],
    [`"quoted" 'single'`, '&quot;quoted&quot; &#39;single&#39;'],
    ['&amp;', '&amp;amp;'],
    ['plain text', 'plain text'],
  ])('%s', (input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });
});

describe('renderMail', () => {
  const content = {
    title: 'Your table is booked',
    paragraphs: ['Hello Ann,', 'We look forward to\nseeing you.'],
    details: [
      { label: 'Date', value: 'Saturday 20 June 2026' },
      { label: 'Guests', value: '4' },
    ],
    link: { label: 'Manage your booking', url: 'https://book.example.com/manage/abc?x=1&y=2' },
    venueName: 'The Night Owl',
  };

  it('writes the plain text in reading order, signed with the venue', () => {
    expect(renderMail(content).text).toBe(
      [
        'Your table is booked',
        'Hello Ann,',
        'We look forward to\nseeing you.',
        'Date: Saturday 20 June 2026\nGuests: 4',
        'Manage your booking: https://book.example.com/manage/abc?x=1&y=2',
        '— The Night Owl',
      ].join('\n\n'),
    );
  });

  it('writes the same content as simple HTML', () => {
    const { html } = renderMail(content);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<title>Your table is booked</title>');
    expect(html).toContain('>Your table is booked</h1>');
    expect(html).toContain('>We look forward to<br>seeing you.</p>');
    expect(html).toMatch(/<th [^>]*>Date<\/th><td [^>]*>Saturday 20 June 2026<\/td>/);
    expect(html).toContain('<a href="https://book.example.com/manage/abc?x=1&amp;y=2"');
    expect(html).toContain('>Manage your booking</a>');
    expect(html).toContain('>The Night Owl</p>');
  });

  it('escapes every interpolated value in the HTML and leaves the text as written', () => {
    const hostile = '<img src=x onerror="alert(1)">&\'';
    const { html, text } = renderMail({
      title: hostile,
      paragraphs: [hostile],
      details: [{ label: hostile, value: hostile }],
      link: { label: hostile, url: 'https://example.com/"><script>' },
      venueName: hostile,
    });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('"alert');
    const escaped = '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;';
    // title, h1, paragraph, label, value, link text, signature
    expect(html.split(escaped).length - 1).toBe(7);
    expect(html).toContain('href="https://example.com/%22%3E%3Cscript%3E"');
    expect(text).toContain(`— ${hostile}`);
  });

  it.each(['javascript:alert(1)', 'data:text/html,hi', '/relative/path', 'not a url'])('refuses the link %s', (url) => {
    expect(() => renderMail({ title: 't', venueName: 'v', link: { label: 'x', url } })).toThrow(/mail link/);
  });

  it('leaves out the parts it is not given', () => {
    const { text, html } = renderMail({ title: 'Hi', venueName: 'V' });
    expect(text).toBe('Hi\n\n— V');
    expect(html).not.toContain('<table');
    expect(html).not.toContain('<a ');
  });
});

describe('venueMessage', () => {
  it('sends as the venue with replies to the venue, the subject as the default title', () => {
    const ics = { filename: 'booking.ics', contentType: 'text/calendar; charset=utf-8', content: 'BEGIN:VCALENDAR' };
    const message = venueMessage({
      to: 'ann@example.com',
      subject: 'Booking confirmed',
      venue: { name: 'The Night Owl', email: 'hello@nightowl.example' },
      content: { paragraphs: ['See you soon.'] },
      attachments: [ics],
    });
    expect(message).toEqual({
      to: 'ann@example.com',
      subject: 'Booking confirmed',
      text: 'Booking confirmed\n\nSee you soon.\n\n— The Night Owl',
      html: expect.stringContaining('>Booking confirmed</h1>'),
      senderName: 'The Night Owl',
      replyTo: 'hello@nightowl.example',
      attachments: [ics],
    });
  });

  it('has no Reply-To when the venue has no address', () => {
    const message = venueMessage({ to: 'a@example.com', subject: 'S', venue: { name: 'V', email: null }, content: { title: 'T' } });
    expect(message).not.toHaveProperty('replyTo');
    expect(message.text).toBe('T\n\n— V');
  });
});
