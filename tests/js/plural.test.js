// Dateline.plural (geo/map/js/basemap.js): counts written as geo/names.py plural writes them.
'use strict';

const assert = require('node:assert/strict');
const {test} = require('node:test');
const {load} = require('./load');

const {plural} = load('basemap').Dateline;

const CASES = [
    [0, 'event', undefined, '0 events'],
    [1, 'event', undefined, '1 event'],
    [2, 'event', undefined, '2 events'],
    [1204, 'event', undefined, '1,204 events'],
    [1, 'summary', 'summaries', '1 summary'],
    [8, 'summary', 'summaries', '8 summaries'],
];
for (const [n, word, many, expected] of CASES) {
    test(`${n} ${word} -> ${expected}`, () => {
        assert.equal(plural(n, word, many), expected);
    });
}
