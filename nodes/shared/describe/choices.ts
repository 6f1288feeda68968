// Describing (describe/): a choice's options and default: an enum's values by label, the API's all-value first, Not Set; imports tables/.
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { label } from '../tables/naming';
import type { Field } from '../tables/spec';

/** The API's own "every value" of a filter (`Status.All`, `PaymentMode.All`, `all`): listed first. */
const isAllValue = (value: string): boolean => /(^|\.)all$/i.test(value);

/** An enum's values by label, the API's all-value first. */
export function enumOptions(field: Field): INodePropertyOptions[] {
	return [...(field.values ?? [])]
		.map((value) => ({ name: field.valueLabels?.[value] ?? enumLabel(value), value }))
		.sort(
			(a, b) =>
				Number(isAllValue(b.value)) - Number(isAllValue(a.value)) || a.name.localeCompare(b.name),
		);
}

/** The choice that sends nothing: an optional value without a documented default starts here. */
export const NOT_SET: INodePropertyOptions = { name: 'Not Set', value: '' };

/**
 * The options and default of a choice. Only a documented default is preselected; an optional
 * choice with an all-value starts at it; every other one starts at "Not Set" (not sent), so
 * adding a field never preselects a value the user did not pick. A required choice starts at
 * Not Set too: n8n then says "Parameter ... is required", not 'The value "" is not supported!'.
 */
export function choice(
	field: Field,
	options: INodePropertyOptions[],
): Pick<INodeProperties, 'options' | 'default'> {
	if (field.default !== undefined && field.default !== '')
		return { options, default: field.default as string };
	const all = field.required ? undefined : options.find((o) => isAllValue(String(o.value)));
	return all ? { options, default: all.value } : { options: [NOT_SET, ...options], default: '' };
}

function enumLabel(value: string): string {
	// `Status.PartiallyPaid` -> "Partially Paid"; `based_on_project_hours` -> "Based On Project Hours"
	const last = value.includes('.') ? value.slice(value.lastIndexOf('.') + 1) : value;
	return label(last);
}
