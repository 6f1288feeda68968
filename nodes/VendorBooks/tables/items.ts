/**
 * Vendor Books: items (`{api_url}/books/v3/items`). Scope module `settings`.
 * Source: document 001, "Item", "Endpoints / Items", "Limits".
 */
import type { Field, Operation, Resource } from '../../shared/tables/spec';
import { COMPUTED_MEMBER, sortOrder } from '../../shared/tables/inferred';
import { GET_MANY } from '../../shared/tables/spec';

/** The tax members the service names and computes from a line's `tax_id` (read-only): name, type, and the percentage as `percentage` describes it. */
export const computedTax = (percentage: string): Field[] => [
	{
		name: 'tax_name',
		type: 'string',
		readOnly: true,
		description: 'Name of the tax',
		sources: COMPUTED_MEMBER,
	},
	{
		name: 'tax_type',
		type: 'string',
		readOnly: true,
		description: 'Type of the tax',
		sources: COMPUTED_MEMBER,
	},
	{
		name: 'tax_percentage',
		type: 'string',
		readOnly: true,
		description: percentage,
		sources: COMPUTED_MEMBER,
	},
];

const S = 'VendorBooks.settings';

export const PRODUCT_TYPES = ['goods', 'service', 'digital_service'] as const;
const ITEM_TYPES = ['sales', 'purchases', 'sales_and_purchases', 'inventory'] as const;

/** The rule of `customfield_id` in the entries of an Update Custom Fields body (no required marker in the documents). */
const CUSTOM_FIELD_ENTRY_RULE =
	"required in each entry (not marked required in the vendor's API reference; an entry without it names no field)";

/** Update Custom Fields' list of values (an item's and an invoice's alike). */
export const customFieldValues: Field = {
	name: 'custom_fields',
	type: 'array',
	jsonAlternative: true,
	required: true,
	bodyRoot: true,
	description: 'Custom field values to set',
	fields: [
		{
			name: 'customfield_id',
			type: 'id',
			label: 'Custom Field ID',
			required: true,
			inferredRule: CUSTOM_FIELD_ENTRY_RULE,
			description: 'ID of the custom field',
			sources: `guess: ${CUSTOM_FIELD_ENTRY_RULE}`,
		},
		{ name: 'value', type: 'string', description: 'Value of the custom field' },
	],
	sources: "guess: The list of values of an item's or invoice's Update Custom Fields is required",
};

/** The source of the 100-character limit of the item list's and the estimate list's text filters. */
export const FILTER_LIMIT_GUESS =
	"guess: The 100-character limit of the invoice list's filters is applied to the item list's name and description filters and to the estimate list's item name and item description filters";

const itemId: Field = {
	name: 'item_id',
	type: 'id',
	numeric: true, // the Accounting document, Item: item_id | number; tax_id, purchase_tax_rule_id, sales_tax_rule_id | number
	required: true,
	locator: 'item',
	description: 'ID of the item',
	sources: 'Accounting, Item: "item_id | number"',
};

/** The item record's input fields (read/write) plus the write-only fields of create and update. */
const itemFields: Field[] = [
	{
		name: 'name',
		type: 'string',
		top: true,
		description: 'Name of the item',
	},
	{ name: 'description', type: 'string', multiline: true, description: 'Description of the item' },
	{ name: 'rate', type: 'number', description: 'Sales rate of the item' },
	{ name: 'unit', type: 'string', description: 'Unit of the item' },
	{
		name: 'sku',
		type: 'string',
		label: 'SKU',
		description: 'Stock keeping unit: your code for the item',
	},
	{
		name: 'product_type',
		type: 'enum',
		values: PRODUCT_TYPES,
		description: 'Type of product',
		sources: 'Accounting, Item: "product_type | goods, service or digital_service"',
	},
	{
		name: 'item_type',
		type: 'enum',
		values: ITEM_TYPES,
		default: 'sales',
		description:
			'Whether the item is sold, purchased or both, or tracked as inventory (the default is sales)',
		sources:
			'Accounting, Item: "item_type (allowed sales, purchases, sales_and_purchases, inventory; default sales)"',
	},
	{
		name: 'tax_id',
		type: 'id',
		numeric: true,
		description: 'ID of the tax applied to the item',
		sources: 'Accounting, Item: "tax_id, purchase_tax_rule_id, sales_tax_rule_id | number"',
	},
	// named and computed by the service from tax_id
	...computedTax('Tax percentage as text, e.g. a number followed by %'),
	{
		name: 'purchase_tax_rule_id',
		type: 'id',
		numeric: true,
		description: 'ID of the purchase tax rule',
		sources: 'Accounting, Item: "tax_id, purchase_tax_rule_id, sales_tax_rule_id | number"',
	},
	{
		name: 'sales_tax_rule_id',
		type: 'id',
		numeric: true,
		description: 'ID of the sales tax rule',
		sources: 'Accounting, Item: "tax_id, purchase_tax_rule_id, sales_tax_rule_id | number"',
	},
	{
		name: 'hsn_or_sac',
		type: 'string',
		label: 'HSN or SAC',
		group: 'India',
		description: 'HSN code of the goods or SAC code of the service',
	},
	{
		name: 'sat_item_key_code',
		type: 'string',
		label: 'SAT Item Key Code',
		group: 'Mexico',
		description: 'SAT item key code',
	},
	{
		name: 'unitkey_code',
		type: 'string',
		label: 'Unit Key Code',
		group: 'Mexico',
		description: 'Unit key code',
	},
	{
		name: 'item_tax_preferences',
		type: 'array',
		jsonAlternative: true,
		description: 'Tax preferences of the item',
		fields: [
			{
				name: 'tax_id',
				type: 'id',
				numeric: true,
				description: 'ID of the tax',
				sources: 'Accounting, Item: "tax_id, purchase_tax_rule_id, sales_tax_rule_id | number"',
			},
			{
				name: 'tax_specification',
				type: 'string',
				description: 'Tax specification of the preference',
			},
		],
	},
	{
		name: 'custom_fields',
		type: 'array',
		jsonAlternative: true,
		description: 'Custom field values',
		fields: [
			{
				name: 'customfield_id',
				type: 'id',
				label: 'Custom Field ID',
				description: 'ID of the custom field',
			},
			{ name: 'value', type: 'string', description: 'Value of the custom field' },
		],
	},
	// Write-only fields accepted on create and update.
	{
		name: 'is_taxable',
		type: 'boolean',
		label: 'Taxable',
		description: 'Whether the item is taxable',
	},
	{
		name: 'tax_exemption_id',
		type: 'id',
		description: "ID of the tax exemption; used when 'Taxable' is off",
	},
	{ name: 'account_id', type: 'id', description: 'ID of the sales account' },
	{
		name: 'avatax_tax_code',
		type: 'string',
		label: 'AvaTax Tax Code',
		description: 'Tax code of the item in AvaTax',
	},
	{
		name: 'avatax_use_code',
		type: 'string',
		label: 'AvaTax Use Code',
		description: 'Use code of the item in AvaTax (the reason for an exemption)',
	},
	{
		name: 'purchase_description',
		type: 'string',
		multiline: true,
		description: 'Description shown on purchase transactions',
	},
	{ name: 'purchase_rate', type: 'number', description: 'Rate the item is bought at' },
	{ name: 'purchase_account_id', type: 'id', description: 'ID of the purchase account' },
	{ name: 'inventory_account_id', type: 'id', description: 'ID of the inventory account' },
	{ name: 'vendor_id', type: 'id', description: 'ID of the preferred vendor' },
	{
		name: 'reorder_level',
		type: 'number',
		description: 'Stock level at which the item should be reordered',
	},
	{ name: 'initial_stock', type: 'number', description: 'Opening stock' },
	{ name: 'initial_stock_rate', type: 'number', description: 'Rate of the opening stock' },
];

const operations: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create item',
		description: 'Create an item',
		kind: 'create',
		method: 'POST',
		path: '/items',
		scope: `${S}.CREATE`,
		fields: itemFields,
		responseKey: 'item',
		notes:
			'Requiredness of item fields is not shown in the documents; no field is marked required.',
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many items',
		description: 'List items (active items by default)',
		kind: 'list',
		method: 'GET',
		path: '/items',
		scope: `${S}.READ`,
		responseKey: 'items',
		pagination: 'pageContext',
		perPage: 200,
		fields: [
			{
				name: 'name_startswith',
				type: 'string',
				maxLength: 100,
				description: 'Only items whose name starts with this text',
				sources: FILTER_LIMIT_GUESS,
			},
			{
				name: 'name_contains',
				type: 'string',
				maxLength: 100,
				description: 'Only items whose name contains this text',
				sources: FILTER_LIMIT_GUESS,
			},
			{
				name: 'description_startswith',
				type: 'string',
				maxLength: 100,
				description: 'Only items whose description starts with this text',
				sources: FILTER_LIMIT_GUESS,
			},
			{
				name: 'description_contains',
				type: 'string',
				maxLength: 100,
				description: 'Only items whose description contains this text',
				sources: FILTER_LIMIT_GUESS,
			},
			{ name: 'rate_less_than', type: 'number', description: 'Only items with a rate below this' },
			{
				name: 'rate_less_equals',
				type: 'number',
				description: 'Only items with a rate of at most this',
			},
			{
				name: 'rate_greater_than',
				type: 'number',
				description: 'Only items with a rate above this',
			},
			{
				name: 'rate_greater_equals',
				type: 'number',
				description: 'Only items with a rate of at least this',
			},
			{
				name: 'is_taxable',
				type: 'boolean',
				label: 'Taxable',
				description: 'Only taxable (on) or non-taxable (off) items',
			},
			{
				name: 'filter_by',
				type: 'enum',
				values: ['Status.All', 'Status.Active', 'Status.Inactive'],
				valueLabels: {
					'Status.All': 'All',
					'Status.Active': 'Active',
					'Status.Inactive': 'Inactive',
				},
				inferred: true,
				description: 'Only items with this status',
				sources: 'guess: Inferred names, marked `inferred` in the tables',
			},
			{
				name: 'sort_column',
				type: 'enum',
				values: ['name', 'rate', 'tax_name'],
				inferred: true,
				description: 'Field to sort the items by',
				sources: 'guess: Inferred names, marked `inferred` in the tables',
			},
			sortOrder,
		],
		sources: {
			perPage: 'Accounting, Page context: "per_page (200 in the sample)"',
			pagination:
				'Accounting, What the service does: "The list envelope also carries `page_context`"',
		},
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update item',
		description: 'Update an item',
		kind: 'update',
		method: 'PUT',
		path: '/items/{item_id}',
		scope: `${S}.UPDATE`,
		fields: [itemId, ...itemFields],
		responseKey: 'item',
		sources: { path: 'Accounting, Items: "PUT | /items/{item_id}"' },
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get item',
		description: 'Get an item',
		kind: 'get',
		method: 'GET',
		path: '/items/{item_id}',
		scope: `${S}.READ`,
		fields: [itemId],
		responseKey: 'item',
		sources: { path: 'Accounting, Items: "GET | /items/{item_id}"' },
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete item',
		description: 'Delete an item (an item that is part of a transaction cannot be deleted)',
		kind: 'delete',
		method: 'DELETE',
		path: '/items/{item_id}',
		scope: `${S}.DELETE`,
		fields: [itemId],
		sources: { path: 'Accounting, Items: "DELETE | /items/{item_id}"' },
	},
	{
		value: 'updateCustomFields',
		name: 'Update Custom Fields',
		action: 'Update item custom fields',
		description: 'Update the custom field values of an item',
		kind: 'action',
		method: 'PUT',
		path: '/item/{item_id}/customfields',
		scope: `${S}.UPDATE`,
		fields: [itemId, customFieldValues],
		notes: 'Path uses the singular `/item/`, as documented.',
		sources: { path: 'Accounting, Items: "PUT | /item/{item_id}/customfields"' },
	},
	{
		value: 'markActive',
		name: 'Mark Active',
		action: 'Mark item as active',
		description: 'Mark an inactive item as active',
		kind: 'action',
		method: 'POST',
		path: '/items/{item_id}/active',
		scope: `${S}.CREATE`,
		fields: [itemId],
		sources: { path: 'Accounting, Items: "POST | /items/{item_id}/active"' },
	},
	{
		value: 'markInactive',
		name: 'Mark Inactive',
		action: 'Mark item as inactive',
		description: 'Mark an active item as inactive',
		kind: 'action',
		method: 'POST',
		path: '/items/{item_id}/inactive',
		scope: `${S}.CREATE`,
		fields: [itemId],
		sources: { path: 'Accounting, Items: "POST | /items/{item_id}/inactive"' },
	},
];

export const item: Resource = {
	value: 'item',
	name: 'Item',
	idField: 'item_id',
	nameField: 'name',
	listOperation: GET_MANY,
	operations,
	/** Simplify: the fields kept (item fields of the documents). */
	simplify: ['item_id', 'name', 'sku', 'status', 'product_type', 'rate', 'unit', 'description'],
};
