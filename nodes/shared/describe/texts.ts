// Describing (describe/): n8n's conventions for the texts of a description, applied once to everything built; imports nothing of the engine.
/**
 * The texts of every property and option, as n8n's lint (eslint-plugin-n8n-nodes-base) and UX
 * guidelines want them, whatever table or feature wrote them:
 * - a description that only repeats the label ("City" for City) is left out;
 * - a description of one sentence has no final period, one of several ends with one (the
 *   rules count sentences as n8n does: split at ". ", the first "e.g." not counted);
 * - a yes/no parameter's description starts with "Whether".
 * The texts themselves stay the tables'; scripts/literal-lint.mjs checks the result.
 */
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

/** n8n's sentence count: the rules split at ". " after taking out the first "e.g.". */
function sentenceCount(text: string): number {
	return text.replace('e.g.', '').split('. ').length;
}

/** One sentence without a final period, several with one. */
function punctuated(text: string): string {
	const trimmed = text.trim();
	if (/\s{2,}/.test(trimmed)) return trimmed;
	const bare = trimmed.replace(/\.+$/, '');
	return sentenceCount(bare) > 1 ? `${bare}.` : bare;
}

/** The description as the label says it already: "City", "The city", "City." for City. */
function repeatsLabel(description: string, displayName: string): boolean {
	return (
		description
			.replace(/^The\s/, '')
			.replace(/\.$/, '')
			.toLowerCase() === displayName.toLowerCase()
	);
}

function lowerFirst(text: string): string {
	return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function polishOption(option: INodePropertyOptions): INodePropertyOptions {
	if (option.description === undefined) return option;
	return { ...option, description: punctuated(option.description) };
}

function polishCollection(collection: INodePropertyCollection): INodePropertyCollection {
	return { ...collection, values: collection.values.map(polishProperty) };
}

type Option = INodePropertyOptions | INodeProperties | INodePropertyCollection;

function polishAny(option: Option): Option {
	if ('values' in option && Array.isArray(option.values)) return polishCollection(option);
	if ('type' in option && 'displayName' in option) return polishProperty(option);
	return polishOption(option as INodePropertyOptions);
}

/** One property (and what it holds) with n8n's text conventions. */
function polishProperty(prop: INodeProperties): INodeProperties {
	const out: INodeProperties = { ...prop };
	if (out.options)
		out.options = (out.options as Option[]).map(polishAny) as INodeProperties['options'];
	if (out.description === undefined) return out;
	let text = out.description.trim();
	if (!text || repeatsLabel(text, out.displayName)) {
		delete out.description;
		return out;
	}
	if (out.type === 'boolean' && !text.startsWith('Whether')) text = `Whether ${lowerFirst(text)}`;
	out.description = punctuated(text);
	return out;
}

export function polishProperties(props: INodeProperties[]): INodeProperties[] {
	return props.map(polishProperty).map(sortedChoices);
}

/**
 * A top-level choice (resource, operation, any top-level dropdown) with its options in
 * alphabetical order, "Not Set" and the API's all-value among them: n8n's review rule
 * options-sorted-alphabetically allows no exception. One stays where it is: a last option named
 * "Custom API Call" (the resource and operation lists), because n8n appends its own Custom API
 * Call to those lists unless their last option has that name. Only the order changes: the
 * `default` stays the value it was, and n8n shows the default, not the first option.
 */
function sortedChoices(prop: INodeProperties): INodeProperties {
	if (
		prop.type !== 'options' ||
		!Array.isArray(prop.options) ||
		prop.options.some((o) => typeof o.name !== 'string')
	)
		return prop;
	const all = prop.options as INodePropertyOptions[];
	const last = all[all.length - 1]?.name === LAST_BY_N8N ? all.slice(-1) : [];
	const sorted = all
		.slice(0, all.length - last.length)
		.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
	return { ...prop, options: [...sorted, ...last] };
}

/** The option name n8n looks for at the end of a resource or operation list before adding its own (features/customCall.ts). */
const LAST_BY_N8N = 'Custom API Call';
