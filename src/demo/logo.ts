/** The demo venue's logo: a small owl mark drawn as SVG and rendered to PNG (uploads take raster images only). */
import sharp from 'sharp';

const OWL_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <rect width="256" height="256" rx="48" fill="#14131a"/>
  <path d="M64 92 L92 60 L112 88 Q128 80 144 88 L164 60 L192 92 Q204 150 176 190 Q128 226 80 190 Q52 150 64 92 Z" fill="#d4a017"/>
  <circle cx="104" cy="118" r="22" fill="#f4f1ea"/><circle cx="152" cy="118" r="22" fill="#f4f1ea"/>
  <circle cx="104" cy="118" r="9" fill="#14131a"/><circle cx="152" cy="118" r="9" fill="#14131a"/>
  <path d="M120 146 L128 160 L136 146 Z" fill="#14131a"/>
</svg>`;

export async function demoLogo(): Promise<string> {
  const png = await sharp(Buffer.from(OWL_SVG)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}
