/**
 * The portal's one eager script, on every page (BaseLayout.astro): it defines the header's search
 * (`<site-search>`) and theme switch (`<theme-select>`) and every copy button (`<copy-button>`),
 * and loads the sample tabs and the try-it panel when the reader comes near them.
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

// The try-it panel (a view page's, beside the directory, or the reference's, at its foot) the same
// way: its form shows and its Send works once its script is here, a screen before the reader
// reaches it; until then, and without JavaScript, its note points at the curl command.
whenNear(document.querySelectorAll('try-it'), () => {
	if (customElements.get('try-it')) return;
	import('../try-it/try-it-panel.ts').catch(() => {
		// Offline or a new deploy: the panel keeps its note and hidden form, as without JavaScript.
	});
});
