import { describe, expect, it } from 'vitest';
import { MAX_ENTRIES_PER_IMPORT, parseCsv, parsePastedList } from '@/lib/portfolio/entries';

describe('pasted thermostat lists', () => {
  it('reads ids with optional labels, one per line, and reports bad lines by number', () => {
    const { entries, problems } = parsePastedList(
      '318324702718, Unit 4B\n\n318324702719\t Lobby \n31832470271\nabc\n318324702718,again',
    );
    expect(entries).toEqual([
      { line: 1, thermostatId: '318324702718', unitLabel: 'Unit 4B', building: '' },
      { line: 3, thermostatId: '318324702719', unitLabel: 'Lobby', building: '' },
    ]);
    expect(problems.map((p) => [p.line, p.problem])).toEqual([
      [4, 'Not a thermostat id: it is 12 digits.'],
      [5, 'Not a thermostat id: it is 12 digits.'],
      [6, 'Listed twice; added once.'],
    ]);
  });

  it('reads a building after the label, by tabs or commas (the service does not say it)', () => {
    const { entries } = parsePastedList(
      '318324702718, Unit 4B, Harbor View\n318324702719\tUnit 5, east\taaaaaaaaaaaaaaaaaaaaaaaa\n318324702720,,Harbor View',
    );
    expect(entries.map((entry) => [entry.unitLabel, entry.building])).toEqual([
      ['Unit 4B', 'Harbor View'],
      ['Unit 5, east', 'aaaaaaaaaaaaaaaaaaaaaaaa'],
      ['', 'Harbor View'],
    ]);
  });

  it(`attempts at most ${MAX_ENTRIES_PER_IMPORT} and says which were not attempted`, () => {
    const lines = Array.from({ length: MAX_ENTRIES_PER_IMPORT + 2 }, (_, i) =>
      String(100000000000 + i),
    );
    const { entries, problems } = parsePastedList(lines.join('\n'));
    expect(entries).toHaveLength(MAX_ENTRIES_PER_IMPORT);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatchObject({
      line: MAX_ENTRIES_PER_IMPORT + 1,
      problem: `At most ${MAX_ENTRIES_PER_IMPORT} thermostats per import; import the rest separately.`,
    });
  });
});

describe('CSV import', () => {
  it('finds the columns by name, whatever their order and case, with quoted cells', () => {
    const result = parseCsv(
      '\uFEFFUnit,ThermostatId\n"Unit 1, north",318324702718\nUnit 2,12\n,318324702720\n',
    );
    if ('error' in result) throw new Error(result.error);
    expect(result.entries).toEqual([
      { line: 2, thermostatId: '318324702718', unitLabel: 'Unit 1, north', building: '' },
      { line: 4, thermostatId: '318324702720', unitLabel: '', building: '' },
    ]);
    const withBuildings = parseCsv(
      'thermostatId,unit,Building\n318324702718,Unit 1,Harbor View\n318324702719,Unit 2,\n',
    );
    if ('error' in withBuildings) throw new Error(withBuildings.error);
    expect(withBuildings.entries.map((entry) => entry.building)).toEqual(['Harbor View', '']);
    expect(result.problems).toEqual([
      { line: 3, input: '12', problem: 'Not a thermostat id: it is 12 digits.' },
    ]);
  });

  it('refuses a file without an id column, or that is not CSV', () => {
    expect(parseCsv('name,unit\nA,B')).toEqual({
      error: 'The first row must name the columns, including thermostatId.',
    });
    // Where and what, in words; not the parser's own message.
    expect(parseCsv('id\n"unterminated')).toEqual({
      error:
        'Line 2 has a double quote out of place: a value holding a comma or a quote goes in double quotes, with each quote inside written twice.',
    });
    expect(parseCsv('id,unit\n"a" x,b')).toEqual({
      error: expect.stringMatching(/^Line 2 has a double quote out of place/),
    });
  });
});
