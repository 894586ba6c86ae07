/**
 * Child process of image-process.test.ts: a stand-in for the server that re-encodes one image through
 * the image process (src/platform/images.ts) and prints that process's id as JSON. With `stay` it then
 * keeps running until the test kills it; with `exit` it simply ends, and must be able to.
 */
import { imageProcessId, reencodeImage } from '../../src/platform/images.js';
import { TINY_IMAGES } from '../helpers/app.js';

const mode = process.argv[2];
if (mode !== 'stay' && mode !== 'exit') throw new Error('usage: image-process.child.ts stay|exit');
const png = Buffer.from(TINY_IMAGES.png.slice(TINY_IMAGES.png.indexOf(',') + 1), 'base64');
const reencoded = await reencodeImage(png, 'png');
process.stdout.write(`${JSON.stringify({ pid: imageProcessId(), bytes: reencoded.length })}\n`);
if (mode === 'stay') setInterval(() => undefined, 60_000);
