/**
 * Ends Astro's build when `npm run build`, which started it, is gone. The script passes a SIGINT or
 * SIGTERM on to Astro, but a SIGKILL (`npm start` sends one five seconds after a SIGTERM that was
 * not obeyed) ends the script alone: Astro's process was left building, with nothing to index
 * after it. The script starts Astro with an IPC channel (scripts/lib/astro-build.ts); the channel
 * closes when the script ends, however it ends, and Astro's process then stops itself with a SIGTERM.
 * A bare `astro build` has no channel, and nothing changes for it.
 */
import type { AstroIntegration } from 'astro';

/** The Astro integration that stops a build started by `npm run build` once that script is gone. */
export function stopWithParent(): AstroIntegration {
	return {
		name: 'console-portal:stop-with-parent',
		hooks: {
			'astro:config:setup': ({ command }) => {
				if (command !== 'build' || !process.connected) return;
				// The channel alone must not keep the build running once its work is done.
				process.channel?.unref();
				process.once('disconnect', () => {
					process.kill(process.pid, 'SIGTERM');
				});
			},
		},
	};
}
