/**
 * The branding screen's own look maths (portal/src/setup/branding/look.ts): WCAG contrast ratios for its
 * warnings, and the draft stylesheet of its live preview, which must be what the server serves as
 * `theme.css` once the settings are saved.
 */
import { describe, expect, it } from 'vitest';
import { themeCss as serverThemeCss } from '../../src/modules/widgets/widget-page.js';
import { contrastChecks, FONTS, longHex, themeCss } from '../../portal/src/setup/branding/look.js';

describe('branding look', () => {
  it.each([
    ['#abc', '#aabbcc'],
    ['#A0B1C2', '#a0b1c2'],
    ['#12345', undefined],
    ['red', undefined],
  ])('longHex(%s) is %s', (input, expected) => {
    expect(longHex(input)).toBe(expected);
  });

  it.each([
    // text, background, accent → the three ratios (text on bg, white on the darkened accent, accent on bg)
    [{ text_color: '#000000', bg_color: '#ffffff', accent_color: '#000000' }, [21, 21, 21]],
    [{ text_color: '#ffffff', bg_color: '#ffffff', accent_color: '#ffffff' }, [1, 2.1, 1]],
    [{ text_color: '#1f2933', bg_color: '#ffffff', accent_color: '#b08d57' }, [14.76, 5.68, 3.09]],
    [{ text_color: '#cccccc', bg_color: '#fff4e0', accent_color: '#0b6e4f' }, [1.47, 9.87, 5.74]],
  ])('contrast of %o', (look, ratios) => {
    const checks = contrastChecks(look);
    expect(checks.map((c) => c.needed)).toEqual([4.5, 4.5, 3]);
    checks.forEach((check, i) => expect(check.ratio).toBeCloseTo(ratios[i], 1));
  });

  it.each(FONTS.flatMap((font) => ['narrow', 'medium', 'wide'].map((width) => [font.key, width])))(
    'the draft stylesheet (font %s, width %s) is the saved theme.css',
    (fontKey, width) => {
      const look = {
        accent_color: '#0b6e4f',
        bg_color: '#fff4e0',
        text_color: '#2b1d0e',
        font_key: fontKey,
        custom_css: '.mw-logo { border-radius: 50%; }',
      };
      expect(themeCss(look, width)).toBe(
        serverThemeCss({
          accent: look.accent_color,
          background: look.bg_color,
          text: look.text_color,
          fontKey,
          width,
          customCss: look.custom_css,
        }),
      );
    },
  );
});
