import { describeEventData, EVENT_TYPE_TABLE, EVENT_TYPES, isEventType } from './domain-event';

describe('the event types (EVENT_TYPE_TABLE)', () => {
  it('lists every type once, in the order the API shows them', () => {
    expect(EVENT_TYPES).toEqual([
      'Proposed',
      'Approved',
      'Rejected',
      'Executed',
      'ExecutionFailed',
      'ReimbursementPaid',
      'PatternSaved',
      'PatternRetired',
    ]);
  });

  it('has the shape the events table checks (PascalCase letters, at most 64)', () => {
    for (const type of EVENT_TYPES) expect(type).toMatch(/^[A-Z][A-Za-z]{0,63}$/);
  });

  it('tells a listed type from anything else, inherited properties included', () => {
    expect(isEventType('PatternSaved')).toBe(true);
    for (const other of ['patternSaved', 'Unknown', 'toString', 'constructor', '', 7, null, undefined]) {
      expect(isEventType(other)).toBe(false);
    }
  });

  it("describes each type's data for the API from the table", () => {
    const description = describeEventData();
    expect(description).toMatch(/^per type: Proposed \{kind, merchant, /);
    for (const type of EVENT_TYPES) expect(description).toContain(`${type} {${EVENT_TYPE_TABLE[type].data}}`);
    expect(description).toContain('suggestion_confirmed');
  });

  it('labels each type for people', () => {
    expect(EVENT_TYPE_TABLE.ExecutionFailed.label).toBe('Execution failed');
    for (const type of EVENT_TYPES) expect(EVENT_TYPE_TABLE[type].label).not.toBe('');
  });
});
