/**
 * The sentences the searched part of the people and access pages says, and a view's hosts line,
 * as text: the pages render them, and the MCP server's search records (mcp/search.ts)
 * repeat them, so that its search finds the pages the built site's search finds.
 */
import type { Role } from '../schemas/view.ts';
import type { ViewHosts } from '../shared/hosts.ts';
import { count } from './access.ts';
import { describeRoles, type Person } from './people.ts';

/** `/access/`'s lede: how many people, views and environments, and how to read the table. */
export function accessOverviewLede(people: number, views: number, environments: number): string {
	return `${count(people, 'person', 'people')} in ${count(views, 'view', 'views')} across ${count(environments, 'environment', 'environments')}. Each cell names who holds that role in at least one of the environment's views; a name leads to the person's page, with every view they are in.`;
}

/** `/access/environments/<environment>/`'s lede. */
export function environmentAccessLede(environment: string, people: number): string {
	return `${count(people, 'person', 'people')} in ${environment}'s views, with the roles they hold there.`;
}

/** `/access/environments/<environment>/<role>/`'s lede; `views` is the environment's view count. */
export function roleInEnvironmentLede(
	role: Role,
	environment: string,
	holders: number,
	views: number,
): string {
	return `${count(holders, 'person holds', 'people hold')} the role ${role} in at least one of ${environment}'s ${count(views, 'view', 'views')}.`;
}

/** `/access/roles/<role>/`'s lede. */
export function roleAccessLede(role: Role, people: number): string {
	return `${count(people, 'person holds', 'people hold')} the role ${role} in at least one view.`;
}

/** A person page's summary: how many views and environments, and the roles held. */
export function personSummary(
	person: Pick<Person, 'memberships' | 'roles'>,
	environments: number,
): string {
	return `In ${count(person.memberships.length, 'view', 'views')} across ${count(environments, 'environment', 'environments')}: ${describeRoles(person.roles)}.`;
}

/** How many of a person's views give them one of their other names. */
export function otherNameViews(person: Pick<Person, 'memberships'>, name: string): number {
	return person.memberships.filter((membership) => membership.name === name).length;
}

/** A view's hosts line as its page reads: console, database and cache, without users. */
export function viewHostsText(hosts: ViewHosts): string {
	return `Hosts console ${hosts.apiHost}:${hosts.apiPort} database ${hosts.databaseName} on ${hosts.databaseHost}:${hosts.databasePort} cache ${hosts.redisHost}:${hosts.redisPort}`;
}
