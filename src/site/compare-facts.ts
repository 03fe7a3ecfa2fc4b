/** Builds the compare page's facts for every view, at build time only (it reads secrets). */
import { CONFIG_MEMBERS, type View } from '../schemas/view.ts';
import type { CompareFacts, ConfigMember } from '../shared/compare.ts';
import { viewHosts } from '../shared/hosts.ts';
import { viewName } from '../shared/views.ts';

/** Builds every view's facts, numbering secret values so equal values get equal numbers. */
export function compareFacts(entries: readonly { slug: string; view: View }[]): CompareFacts[] {
	const numbers = new Map<string, number>();
	const numberOf = (member: ConfigMember, value: string): number => {
		const key = `${member}\u0000${value}`;
		let number = numbers.get(key);
		if (number === undefined) {
			number = numbers.size + 1;
			numbers.set(key, number);
		}
		return number;
	};
	return entries.map(({ slug, view }) => {
		const secrets = Object.fromEntries(
			CONFIG_MEMBERS.map((member) => [member, numberOf(member, view.config[member])]),
		) as Record<ConfigMember, number>;
		return {
			slug,
			name: viewName(view),
			environment: view.environment,
			configuration: view.configuration ?? null,
			apiVersion: view.apiVersion ?? null,
			lastUpdated: view.lastUpdated,
			generatedAt: view.generatedAt,
			...viewHosts(view),
			secrets,
			users: view.users.map(({ name, email, role }) => ({ name, email, role })),
		};
	});
}
