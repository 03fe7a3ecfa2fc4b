/** The keyboard shortcuts that open search, kept apart so the eager script stays tiny. */

/** The parts of a key press the shortcut check reads. */
export interface KeyPress {
	key: string;
	ctrlKey: boolean;
	metaKey: boolean;
	altKey: boolean;
}

/** Whether a key press opens search: `/` outside a text field, or Ctrl/Cmd-K anywhere. */
export function opensSearch(press: KeyPress, inTextField: boolean): boolean {
	if (press.altKey) return false;
	if ((press.ctrlKey || press.metaKey) && press.key.toLowerCase() === 'k') return true;
	return press.key === '/' && !press.ctrlKey && !press.metaKey && !inTextField;
}
