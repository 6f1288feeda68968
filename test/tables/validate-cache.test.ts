/**
 * Validation schemas are built once per field table entry and side, not per item: a field
 * whose `type` counts its reads shows that validating many items builds its schema once.
 */
import type { Field, Operation } from '../../nodes/shared/tables/spec';
import { cachedFieldSchema, fieldSchema } from '../../nodes/shared/tables/schemas';
import { validateValues } from '../../nodes/shared/tables/validate';

function countingField(): { field: Field; builds: () => number } {
	let reads = 0;
	const field = { name: 'name', maxLength: 5, required: true } as unknown as Field;
	Object.defineProperty(field, 'type', {
		enumerable: true,
		get: () => {
			reads++;
			return 'string';
		},
	});
	return { field, builds: () => reads };
}

const opWith = (field: Field): Operation =>
	({
		value: 'create',
		name: 'Create',
		action: 'Create',
		kind: 'create',
		method: 'POST',
		path: '/things',
		fields: [field],
	}) as unknown as Operation;

test('validating 1,000 items builds the field schema once; the results are those of a fresh schema', () => {
	const { field, builds } = countingField();
	const op = opWith(field);
	expect(validateValues(op, { name: 'abc' })).toEqual([]);
	const afterFirst = builds();
	expect(afterFirst).toBeGreaterThan(0);
	for (let i = 0; i < 1000; i++) validateValues(op, { name: i % 2 ? 'abc' : 'too long' });
	expect(builds()).toBe(afterFirst);
	expect(validateValues(op, { name: 'too long' })).toEqual([
		{
			field: 'name',
			message: 'must be at most 5 characters as the API counts them, where an emoji counts as 2',
		},
	]);
	expect(fieldSchema(field).safeParse('too long').success).toBe(false);
});

test('one cached schema per field and side', () => {
	const { field } = countingField();
	expect(cachedFieldSchema(field)).toBe(cachedFieldSchema(field, 'client'));
	expect(cachedFieldSchema(field, 'server')).toBe(cachedFieldSchema(field, 'server'));
	expect(cachedFieldSchema(field, 'server')).not.toBe(cachedFieldSchema(field, 'client'));
});
