/**
 * Runs a task one run at a time: a call while a run is under way asks for exactly one more run
 * after it, however many calls came. The mock's watcher and the dev server's content loader use
 * it, so a slow read of old files never lands after a newer one.
 */
export function serially(task: () => Promise<unknown>): () => void {
	let running = false;
	let again = false;
	const run = (): void => {
		if (running) {
			again = true;
			return;
		}
		running = true;
		task()
			.catch(() => undefined)
			.finally(() => {
				running = false;
				if (again) {
					again = false;
					run();
				}
			});
	};
	return run;
}
