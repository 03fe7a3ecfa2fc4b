/** Modules made at build time by the portal's own Vite plugins. */
declare module 'virtual:try-it-validators' {
	/** The contract's answers of GET /api/v2/users: status, media type, compiled validator. */
	export const responses: import('./shared/contract-check.ts').ContractAnswers;
	/** GET /api/v2/users as the contract's check reads it: its answers and each status's headers. */
	export const contract: import('./shared/exchange-check.ts').OperationContract;
	/** QUERY /api/v2/users read the same way, when the contract has one (OpenAPI 3.2). */
	export const queryContract: import('./shared/exchange-check.ts').OperationContract | undefined;
}
declare module 'virtual:try-it-choices' {
	/** What the panel offers a reader who builds a request, read from the contract at build time. */
	export const choices: import('./integrations/try-it-validators.ts').TryItChoices;
}
