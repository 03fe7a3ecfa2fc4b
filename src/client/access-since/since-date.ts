/**
 * The DOM-free part of the date-picking page: reading the picked date and checking the fetched
 * file's shape before it is used. The net difference itself is `shared/access-since.ts`, which the
 * tag pages use too.
 */
import type { SinceData } from '../../shared/access-since.ts';

/** How many rows the page shows before saying how many more there are. */
export const SHOWN_ROWS = 500;

/**
 * A date as a date field gives it (`2026-10-02`) as the moment it starts, in UTC (milliseconds
 * since 1970); undefined for anything else, a day that does not exist included.
 */
export function startOfDay(value: string): number | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
	if (!match) return undefined;
	const [, year = '', month = '', day = ''] = match;
	const moment = Date.UTC(Number(year), Number(month) - 1, Number(day));
	const date = new Date(moment);
	if (
		date.getUTCFullYear() !== Number(year) ||
		date.getUTCMonth() !== Number(month) - 1 ||
		date.getUTCDate() !== Number(day)
	) {
		return undefined;
	}
	return moment;
}

/** Whether every item of a list is a tuple of `length` numbers. */
function tuplesOfNumbers(value: unknown, length: number): boolean {
	return (
		Array.isArray(value) &&
		value.every(
			(item) =>
				Array.isArray(item) &&
				item.length === length &&
				item.every((part) => typeof part === 'number' && Number.isInteger(part)),
		)
	);
}

/** Whether every item of a list is a tuple of `length` strings. */
function tuplesOfStrings(value: unknown, length: number): boolean {
	return (
		Array.isArray(value) &&
		value.every(
			(item) =>
				Array.isArray(item) &&
				item.length === length &&
				item.every((part) => typeof part === 'string'),
		)
	);
}

/** Whether fetched JSON has the shape of `/access-since.json`. */
export function isSinceData(value: unknown): value is SinceData {
	if (typeof value !== 'object' || value === null) return false;
	const data = value as Record<string, unknown>;
	return (
		typeof data['available'] === 'boolean' &&
		typeof data['reason'] === 'string' &&
		typeof data['shallow'] === 'boolean' &&
		typeof data['start'] === 'string' &&
		Array.isArray(data['roles']) &&
		data['roles'].every((role) => typeof role === 'string') &&
		Array.isArray(data['environments']) &&
		data['environments'].every((environment) => typeof environment === 'string') &&
		tuplesOfStrings(data['people'], 3) &&
		tuplesOfNumbers(data['now'], 4) &&
		tuplesOfNumbers(data['pending'], 4) &&
		tuplesOfStrings(data['commits'], 2) &&
		tuplesOfNumbers(data['events'], 5)
	);
}
