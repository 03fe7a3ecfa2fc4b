/**
 * `node bench/starlight-site.ts` builds the Starlight site of the page-weight comparison
 * (`bench/lib/starlight-site.ts`) into bench/tools/.work/starlight/dist.
 */
import { buildStarlightSite } from './lib/starlight-site.ts';

const dist = await buildStarlightSite();
console.log(`Built the Starlight site into ${dist}`);
