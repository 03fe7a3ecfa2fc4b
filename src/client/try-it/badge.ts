/** The try-it answer's status badge: `200 OK · 112 ms · 649 B`, coloured by the status's class. */
/** How a status is coloured: 2xx green (`ok`), 4xx red (`client`), 5xx amber (`server`), else plain. */
export type StatusTone = 'ok' | 'client' | 'server' | 'other';

/** The colour class of a status. */
export function statusTone(status: number): StatusTone {
	if (status >= 200 && status < 300) return 'ok';
	if (status >= 400 && status < 500) return 'client';
	if (status >= 500 && status < 600) return 'server';
	return 'other';
}

/** A size as the badge gives it: `649 B`, `3.5 KiB`, `1.2 MiB`. */
export function badgeSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	const [amount, unit] = bytes < 1024 ** 2 ? [bytes / 1024, 'KiB'] : [bytes / 1024 ** 2, 'MiB'];
	return `${Number(amount.toFixed(1))} ${unit}`;
}

/** The badge's text: the status line, the time taken (`112 ms`) and the size of the body read. */
export function badgeText(status: string, elapsed: string, bytes: number): string {
	return `${status} · ${elapsed} · ${badgeSize(bytes)}`;
}
