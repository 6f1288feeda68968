/**
 * The sources of the refusals the pipeline makes itself and of the field tables' validation, from
 * each area's `nodes/<Node>/tables/sources.ts`; how one is found: README.md, "Sources of refusals".
 */
import type { Field, Operation, Resource } from '../../nodes/shared/tables/spec';
import type { Problem } from '../../nodes/shared/tables/validate';
import { SOURCES as BILLING } from '../../nodes/VendorBilling/tables/sources';
import { SOURCES as BOOKS } from '../../nodes/VendorBooks/tables/sources';
import { SOURCES as INVENTORY } from '../../nodes/VendorInventory/tables/sources';
import { SOURCES as INVOICE } from '../../nodes/VendorInvoice/tables/sources';
import { SOURCES as PROJECTS } from '../../nodes/VendorProjects/tables/sources';
import { type Source, SOURCE_HEADER } from '../source';
import type { Reply } from './context';
import { GUESS } from './refusals';

/** The documents' words behind the pipeline's own refusals. */
export const PIPELINE = {
	token: 'Conventions, Errors: "INVALID_OAUTHTOKEN | token invalid or expired | regenerate the token"',
	scope: 'Conventions, Authentication: "receive delegated access limited to granted scopes"',
	url: 'Conventions, Errors: "URL_RULE_NOT_CONFIGURED | request URL is wrong | use a valid URL"',
	method: 'Conventions, Errors: "INVALID_METHOD | HTTP method not valid for the URL | use a valid method"',
	json: 'Conventions, What the service does: "The service is a set of REST APIs over HTTPS that send and receive JSON."',
	rateProjects: 'Conventions, Limits: "API requests (project management area) | 100 per 2 minutes; exceeding it blocks further requests for 30 minutes"',
	rateAccounting: 'guess: The accounting areas allow 100 requests per minute per organization, 429 past it, no block',
	portal: GUESS.notFound,
	tableShape: GUESS.tableShape,
	idText: 'guess: IDs are text unless the documents give them as numbers.',
} as const satisfies Record<string, Source>;

/** Where each area says its organisation travels. */
export const ORGANIZATION_SOURCES: Readonly<Record<string, Source>> = {
	books: 'Accounting, What the service does: "Query parameter `organization_id` (the organization of the account) is sent on every call."',
	invoice: 'Payments, What the service does: "`X-com-vendor-invoice-organizationid: <organization_id>` for payments"',
	billing: 'Payments, What the service does: "`X-com-vendor-subscriptions-organizationid: <organization_id>` for billing projects"',
	inventory: 'Payments, What the service does: "Bills use the query parameter `organization_id`."',
};

/** Each area's table-rule sources. */
const AREA_SOURCES: Readonly<Record<string, Readonly<Record<string, string>>>> = { books: BOOKS, projects: PROJECTS, invoice: INVOICE, billing: BILLING, inventory: INVENTORY };

/** The rule a validation message states (validate.ts's words), or undefined for a type or shape problem. */
const RULE_WORDS: ReadonlyArray<[RegExp, string]> = [
	[/^is required when /, 'requiredWhen'],
	[/^is required/, 'required'],
	[/^must be at most \d+ characters/, 'maxLength'],
	[/^must be at least \d+ characters/, 'minLength'],
	[/^must have at most \d+ digits/, 'maxDigits'],
	[/^must hold at least /, 'minItems'],
	[/^must hold at most /, 'maxItems'],
	[/^must be one of/, 'values'],
	[/^must be (an ID made of digits|a number written as digits)/, 'numeric'],
	[/^must be a (date written|real calendar date)/, 'date'],
	[/^must be a time written/, 'time'],
	[/date-time/, 'dateTime'],
	[/^must be an email address/, 'email'],
	[/^must be a URL/, 'url'],
	[/^may hold only digits/, 'phone'],
	[/^may hold only letters \(A-Z\) and digits/, 'alphanumeric'],
	[/^must be a whole number/, 'integer'],
	[/^must not be negative|^must be at least -?\d/, 'min'],
	[/^must be at most -?\d/, 'max'],
];

/** A problem of an ID that cannot be one (validate.ts's `idTextProblem`). */
const ID_TEXT = /^(is blank|must not hold control characters|cannot be "\." or "\.\.")/;

/** `line_items[0].rate` -> `line_items.rate`, a scalar list's entry `to_mail_ids[1]` -> `to_mail_ids[]` (the rule keys' paths). */
export function rulePath(fields: readonly Field[], path: string): string | undefined {
	let members: readonly Field[] = fields;
	let field: Field | undefined;
	let out = '';
	for (const token of path.match(/[^.[\]]+/g) ?? []) {
		if (/^\d+$/.test(token)) {
			if (field?.of) {
				out += '[]';
				field = field.of;
			}
			continue;
		}
		field = members.find((f) => f.name === token);
		if (!field) return undefined;
		out += out ? `.${token}` : token;
		members = field.fields ?? [];
	}
	return out || undefined;
}

/** The source of the table rule a validation problem states, if the area's sources give one. */
export function problemSource(area: string, resource: Resource, op: Operation, problem: Problem): Source | undefined {
	if (ID_TEXT.test(problem.message)) return PIPELINE.idText;
	const kind = RULE_WORDS.find(([words]) => words.test(problem.message))?.[1];
	if (!kind) return PIPELINE.tableShape;
	const path = rulePath(op.fields, problem.field);
	const sources = AREA_SOURCES[area];
	if (!path || !sources) return undefined;
	const own = `${resource.value}.${op.value}.${path}.${kind}`;
	const any = `${resource.value}.*.${path}.${kind}`;
	return (sources[own] ?? sources[any]) as Source | undefined;
}

/** `reply` citing `source` when there is one (a refusal without one is left untagged for `requireSource`). */
export function citing(source: Source | undefined, reply: Reply): Reply {
	return source ? { ...reply, source, headers: { ...reply.headers, [SOURCE_HEADER]: source } } : reply;
}

/** The reply, or an error when it is a refusal (400 and up) that names no source: the server answers 500 then. */
export function requireSource(where: string, reply: Reply): Reply {
	if (reply.status >= 400 && reply.source === undefined) throw new Error(`${where}: a refusal (HTTP ${reply.status}) names no source`);
	return reply;
}
