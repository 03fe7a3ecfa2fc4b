/**
 * The theme's inline script, apart from `theme.ts` so that the browser bundle of the theme switch
 * does not carry its text (the layout and the CSP's hash read it at build time).
 */
import { THEME_STORAGE_KEY } from './theme.ts';

/**
 * The inline script at the top of every page's body: it puts the kept choice on `<html>` before
 * anything is painted, so a reader who chose dark never sees a light page first. It repeats
 * `readThemeChoice` and `applyThemeChoice` in plain ES5 because it runs before any module. It also
 * marks `<html>` with the class `js`, first and whatever storage does, so that styles can draw an
 * element as its script will before the script runs (the sample tabs, CodeSamples.astro), and
 * takes it away when a script fails to load.
 */
export const THEME_INIT_SCRIPT =
	`(function(d){d.classList.add('js');` +
	// A script that cannot load (offline, or a page kept across a deploy whose files are gone) takes
	// the class away again: the page then shows what it shows without JavaScript, not room kept
	// for elements that never come.
	`addEventListener('error',function(e){e.target.tagName==='SCRIPT'&&d.classList.remove('js')},true);` +
	`try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});` +
	`if(t==='light'||t==='dark')d.dataset.theme=t}catch(e){}})(document.documentElement)`;
