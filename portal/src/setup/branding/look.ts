/**
 * The widget's look computed in the portal: colour contrast (WCAG 2.1 relative luminance) for the warnings,
 * and the theme stylesheet of unsaved settings for the live preview. The stylesheet follows the server's
 * `themeCss` (src/modules/widgets/widget-page.ts), which serves the saved one as `theme.css`.
 */

export const FONTS = [
  { key: 'sans', label: 'Sans-serif', stack: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  { key: 'serif', label: 'Serif', stack: '"Iowan Old Style", "Palatino Linotype", Palatino, P052, "URW Palladio L", Georgia, serif' },
  { key: 'mono', label: 'Monospace', stack: 'ui-monospace, "SFMono-Regular", Menlo, monospace' },
] as const;

export interface Look {
  accent_color: string;
  bg_color: string;
  text_color: string;
  font_key: string;
  custom_css: string;
}

/** `#rgb` or `#rrggbb` as `#rrggbb` in lower case (what a colour input holds); anything else is undefined. */
export function longHex(value: string): string | undefined {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  return /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : undefined;
}

type Rgb = [number, number, number];

const rgbOf = (hex: string): Rgb => {
  const long = longHex(hex) ?? '#000000';
  return [1, 3, 5].map((i) => parseInt(long.slice(i, i + 2), 16)) as Rgb;
};

function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function ratio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** The widget's primary buttons: the accent mixed 70 % with black (its `--mw-strong`), white text on it. */
const strong = (accent: Rgb): Rgb => accent.map((c) => Math.round(c * 0.7)) as Rgb;

export interface ContrastCheck {
  name: string;
  ratio: number;
  needed: number;
}

/** The pairs the widget draws with the venue's colours, each with the ratio WCAG 2.1 AA asks of it. */
export function contrastChecks(look: Pick<Look, 'accent_color' | 'bg_color' | 'text_color'>): ContrastCheck[] {
  const accent = rgbOf(look.accent_color);
  const bg = rgbOf(look.bg_color);
  const text = rgbOf(look.text_color);
  return [
    { name: 'Text on the background', ratio: ratio(text, bg), needed: 4.5 },
    { name: 'Button text on the accent', ratio: ratio([255, 255, 255], strong(accent)), needed: 4.5 },
    { name: 'Accent outlines on the background', ratio: ratio(accent, bg), needed: 3 },
  ];
}

/** The theme stylesheet of these settings, as the server would serve it once they are saved. */
export function themeCss(look: Look, width: string): string {
  const font = FONTS.find((f) => f.key === look.font_key) ?? FONTS[0];
  return [
    ':root {',
    `  --mw-accent: ${look.accent_color};`,
    `  --mw-bg: ${look.bg_color};`,
    `  --mw-text: ${look.text_color};`,
    `  --mw-font: ${font.stack};`,
    '}',
    `body { --mw-width: var(--mw-width-${/^[a-z]+$/.test(width) ? width : 'medium'}); }`,
    '/* venue custom CSS */',
    look.custom_css,
    '',
  ].join('\n');
}
