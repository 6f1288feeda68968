/**
 * The sources of the refusals the pipeline makes itself and of the field tables' validation, read
 * from the tables (each rule's source stands on its field or operation, `sources`); how one is
 * found: README.md, "Sources of refusals".
 */
import type {
	Field,
	FieldRule,
	Operation,
	OperationRule,
	Source,
} from '../../nodes/shared/tables/spec';
import { locationOf } from '../../nodes/shared/tables/location';
import type { Problem } from '../../nodes/shared/tables/problemText';
import { SOURCE_HEADER } from '../source';
import type { Reply } from './context';
import { GUESS } from './refusals';

/** The documents' words behind the pipeline's own refusals. */
export const PIPELINE = {
	token:
		'Conventions, Errors: "INVALID_OAUTHTOKEN | token invalid or expired | regenerate the token"',
	scope: 'Conventions, Authentication: "receive delegated access limited to granted scopes"',
	url: 'Conventions, Errors: "URL_RULE_NOT_CONFIGURED | request URL is wrong | use a valid URL"',
	method:
		'Conventions, Errors: "INVALID_METHOD | HTTP method not valid for the URL | use a valid method"',
	json: 'Conventions, What the service does: "The service is a set of REST APIs over HTTPS that send and receive JSON."',
	rateProjects:
		'Conventions, Limits: "API requests (project management area) | 100 per 2 minutes; exceeding it blocks further requests for 30 minutes"',
	rateAccounting:
		'guess: The accounting areas allow 100 requests per minute per organization, 429 past it, no block',
	portal: GUESS.notFound,
	tableShape: GUESS.tableShape,
	idText: 'guess: IDs are text unless the documents give them as numbers.',
} as const satisfies Record<string, Source>;

/** Where each area says its organisation travels. */
export const ORGANIZATION_SOURCES: Readonly<Record<string, Source>> = {
	books:
		'Accounting, What the service does: "Query parameter `organization_id` (the organization of the account) is sent on every call."',
	invoice:
		'Payments, What the service does: "`X-com-vendor-invoice-organizationid: <organization_id>` for payments"',
	billing:
		'Payments, What the service does: "`X-com-vendor-subscriptions-organizationid: <organization_id>` for billing projects"',
	inventory: 'Payments, What the service does: "Bills use the query parameter `organization_id`."',
};

/** The rule a validation message states (the words of tables/schemas.ts and textRules.ts), or undefined for a type or shape problem. */
const RULE_WORDS: ReadonlyArray<[RegExp, FieldRule]> = [
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

/** A problem of an ID that cannot be one (tables/ids.ts `idTextProblem`). */
const ID_TEXT = /^(is blank|must not hold control characters|cannot be "\." or "\.\.")/;

/**
 * The source the tables give rule `rule` of `field` in `op` (`top`: the field is one of
 * `op.fields`, not a member or an entry): a path parameter's `required` is the operation's
 * `sources.path`, every other rule the field's own `sources` (one text, or one per rule).
 */
export function ruleSource(
	op: Operation,
	field: Field,
	rule: FieldRule,
	top: boolean,
): Source | undefined {
	if (rule === 'required' && top && locationOf(field, op) === 'path') return op.sources?.path;
	const sources = field.sources;
	return typeof sources === 'string' ? sources : sources?.[rule];
}

/** The source of an operation's own rule. */
export function operationSource(op: Operation, rule: OperationRule): Source | undefined {
	return op.sources?.[rule];
}

/** The field a problem's path names (`line_items[0].rate`: the `rate` member; `to_mail_ids[1]`: the list's entry `of`), and whether it is one of `fields`. */
export function problemField(
	fields: readonly Field[],
	path: string,
): { field: Field; top: boolean } | undefined {
	let members: readonly Field[] = fields;
	let field: Field | undefined;
	let depth = 0;
	for (const token of path.match(/[^.[\]]+/g) ?? []) {
		if (/^\d+$/.test(token)) {
			if (field?.of) {
				field = field.of;
				depth++;
			}
			continue;
		}
		field = members.find((f) => f.name === token);
		if (!field) return undefined;
		depth++;
		members = field.fields ?? [];
	}
	return field && { field, top: depth === 1 };
}

/** The source of the table rule a validation problem states, if the tables give one. */
export function problemSource(op: Operation, problem: Problem): Source | undefined {
	if (ID_TEXT.test(problem.message)) return PIPELINE.idText;
	const rule = RULE_WORDS.find(([words]) => words.test(problem.message))?.[1];
	if (!rule) return PIPELINE.tableShape;
	const found = problemField(op.fields, problem.field);
	return found && ruleSource(op, found.field, rule, found.top);
}

/** `reply` citing `source` when there is one (a refusal without one is left untagged for `requireSource`). */
export function citing(source: Source | undefined, reply: Reply): Reply {
	return source
		? { ...reply, source, headers: { ...reply.headers, [SOURCE_HEADER]: source } }
		: reply;
}

/** The reply, or an error when it is a refusal (400 and up) that names no source: the server answers 500 then. */
export function requireSource(where: string, reply: Reply): Reply {
	if (reply.status >= 400 && reply.source === undefined)
		throw new Error(`${where}: a refusal (HTTP ${reply.status}) names no source`);
	return reply;
}
