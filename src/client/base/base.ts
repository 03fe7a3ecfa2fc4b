/**
 * The portal's one eager script, on every page (BaseLayout.astro): it defines the header's search
 * (`<site-search>`) and theme switch (`<theme-select>`) and every copy button (`<copy-button>`).
 * One file rather than one per component: each file a page loads costs a request and compresses
 * on its own, and these three are on nearly every page.
 *
 * Sample tabs (`<code-tabs>`) that their page does not load with it (a view page's, below its
 * first screen) get their script when they come within a screen of the viewport; the reference
 * and the guides, where tabs are in view at once, load it with the page (ReferenceOperation.astro,
 * MockSamples.astro). Until then, and without JavaScript, every sample shows, one under the other.
 */
import '../search/site-search.ts';
import '../theme/theme-select.ts';
import '../copy-button/copy-button.ts';
import { whenNear } from './near.ts';

whenNear(document.querySelectorAll('code-tabs'), () => {
	if (customElements.get('code-tabs')) return;
	import('../code-tabs/code-tabs.ts').catch(() => {
		// Offline or a new deploy: without the class js, the samples show one under the other, as
		// without JavaScript (theme-init.ts does the same for a script that fails to load).
		document.documentElement.classList.remove('js');
	});
});
