/**
 * The try-it panel's result block and its list of last requests, empty and hidden until a request
 * is sent or the tab has a history, are written by the lazily loaded parts of the panel instead of
 * into every view page, where their markup cost about 370 B of gzip. It is constant markup, no text from an answer: `send.ts` fills
 * them with `textContent`. Its copy buttons are `<copy-button>` elements, defined by the page's
 * other copy buttons (every page with try-it has code blocks).
 */
const RESULT_BLOCK =
	'<div data-result hidden><ul data-notes hidden></ul>' +
	'<section data-check hidden aria-labelledby="try-it-check-heading">' +
	'<h4 id="try-it-check-heading">Checked against the contract</h4><p data-verdict></p>' +
	'<ul data-violations hidden></ul><p data-whose hidden></p>' +
	'<div data-proxy hidden><p data-proxy-verdict></p><ul data-proxy-findings></ul></div></section>' +
	'<div class="block-head"><h4 data-request-heading>Request sent</h4>' +
	'<copy-button data-target="try-it-curl"><button type="button" hidden aria-label="Copy the curl command that was sent">Copy</button><span role="status"></span></copy-button></div>' +
	'<pre class="curl" tabindex="0"><code id="try-it-curl"></code></pre>' +
	'<div data-answer><p data-badge></p>' +
	'<details open><summary>Response headers</summary><pre class="wrap" data-headers></pre></details>' +
	'<details open><summary>Response body</summary>' +
	'<copy-button data-target="try-it-body"><button type="button" hidden aria-label="Copy the response body">Copy</button><span role="status"></span></copy-button>' +
	'<pre id="try-it-body" data-body tabindex="0" aria-label="Response body"></pre></details></div></div>';

/** Writes the result block after the panel's summary line, unless it is there already. */
export function addResultBlock(panel: HTMLElement): void {
	if (panel.querySelector('[data-result]')) return;
	panel.querySelector('[data-summary]')?.insertAdjacentHTML('afterend', RESULT_BLOCK);
}

const HISTORY_SECTION =
	'<section data-history hidden aria-labelledby="try-it-history-heading">' +
	'<div class="block-head"><h4 id="try-it-history-heading">Recent requests</h4>' +
	'<button type="button" data-clear-history>Clear history</button></div>' +
	'<ol data-history-list></ol></section>';

/** Writes the list of last requests at the end of the panel, unless it is there already. */
export function addHistorySection(panel: HTMLElement): void {
	if (panel.querySelector('[data-history]')) return;
	panel.insertAdjacentHTML('beforeend', HISTORY_SECTION);
}
