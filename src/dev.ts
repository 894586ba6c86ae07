/**
 * `npm run dev`: `maitred serve` from the sources (tsx), restarted on every change. The same command as
 * the binary runs, so failures are reported the same way.
 */
import { main } from './cli.js';

await main([process.argv[0]!, process.argv[1]!, 'serve']);
