// Dateline.story (geo/map/js/story.js): the window filter and the convoy's path during Play.
'use strict';

const assert = require('node:assert/strict');
const {describe, test} = require('node:test');
const {load, loadInto, plain} = require('./load');

const story = (load('story').Dateline || {}).story;
assert.ok(story, 'story.js defines no window.Dateline.story (the shared JavaScript contract)');

// Events as the payload has them (geo/map/payload.py): [start, end or null, place index,
// category index, actors, killed (null: no figure; a payload from before the figure was
// sent has no sixth item)].
const DATA = {
    categories: ['clash', 'deal', 'move'],
    events: [
        ['2017-08-01', null, 0, 0, ['army'], 12],
        ['2017-08-05', '2017-08-09', 1, 1, ['army', 'group'], null],
        ['2017-08-10', null, 2, 2, ['group'], 0],
        ['2017-08-12', '2017-08-20', 0, 0, [], 85],
        ['2017-08-21', null, 1, 2, ['red cross']],
    ],
};

function windowState(fields) {
    return {start: '2017-08-01', end: '2017-08-31', categories: null, actors: [], ...fields};
}

describe('windowEvents: which events a window shows', () => {
    const cases = [
        {name: 'all of them in the whole span', state: {}, want: [0, 1, 2, 3, 4]},
        {name: 'a one-day event on the first day', state: {end: '2017-08-01'}, want: [0]},
        {name: 'a one-day event on the last day', state: {start: '2017-08-21'}, want: [4]},
        {name: 'an event that ended before the window is out',
         state: {start: '2017-08-10', end: '2017-08-11'}, want: [2]},
        {name: 'an event that starts after the window is out',
         state: {start: '2017-08-02', end: '2017-08-04'}, want: []},
        {name: 'an event running through the window is in',
         state: {start: '2017-08-14', end: '2017-08-15'}, want: [3]},
        {name: 'an event ending on the first day is in',
         state: {start: '2017-08-09', end: '2017-08-09'}, want: [1]},
        {name: 'an event starting on the last day is in',
         state: {start: '2017-08-06', end: '2017-08-12'}, want: [1, 2, 3]},
        {name: 'categories by name', state: {categories: ['clash']}, want: [0, 3]},
        {name: 'several categories', state: {categories: ['deal', 'move']}, want: [1, 2, 4]},
        {name: 'no category chosen shows nothing', state: {categories: []}, want: []},
        {name: 'an actor: the events it takes part in', state: {actors: ['group']}, want: [1, 2]},
        {name: 'several actors: any of them', state: {actors: ['army', 'red cross']},
         want: [0, 1, 4]},
        {name: 'an event without actors is out when actors are chosen',
         state: {actors: ['nobody']}, want: []},
        {name: 'no fatalities filter keeps events with no figure', state: {killed: null},
         want: [0, 1, 2, 3, 4]},
        {name: 'a fatalities range: the figures inside it, ends included',
         state: {killed: [0, 12]}, want: [0, 2]},
        {name: 'a fatalities range leaves out events with no figure',
         state: {killed: [0, 1000]}, want: [0, 2, 3]},
        {name: 'a range of exactly zero killed', state: {killed: [0, 0]}, want: [2]},
        {name: 'a range no figure falls in', state: {killed: [13, 84]}, want: []},
        {name: 'fatalities with categories and dates',
         state: {start: '2017-08-02', categories: ['clash'], killed: [1, 100]}, want: [3]},
        {name: 'only: the events the server kept (country, text)', state: {only: [1, 3]},
         want: [1, 3]},
        {name: 'only with nothing kept shows nothing', state: {only: []}, want: []},
        {name: 'only with a fatalities range and dates',
         state: {only: [0, 2, 3], killed: [1, 100], start: '2017-08-02'}, want: [3]},
        {name: 'dates, categories and actors together',
         state: {start: '2017-08-06', categories: ['deal', 'move'], actors: ['group']},
         want: [1, 2]},
    ];
    for (const c of cases) {
        test(c.name, () => {
            const got = story.windowEvents(DATA, windowState(c.state));
            assert.deepEqual(plain(got), c.want.map((i) => DATA.events[i]));
        });
    }
});

describe('tail: the stretch of a route from where the convoy was', () => {
    const ROUTE = [[0, 0], [0, 1], [0, 2], [0, 3]];
    const cases = [
        {name: 'from a vertex: the rest of the route', from: [0, 1],
         want: [[0, 1], [0, 2], [0, 3]]},
        {name: 'from the start: all of it', from: [0, 0], want: ROUTE},
        {name: 'from the end: the end alone', from: [0, 3], want: [[0, 3]]},
        {name: 'from off the route: from there to the nearest vertex on',
         from: [0.2, 1.1], want: [[0.2, 1.1], [0, 1], [0, 2], [0, 3]]},
        {name: 'within a millionth of a degree counts as the vertex',
         from: [0.0000001, 2], want: [[0, 2], [0, 3]]},
        {name: 'halfway between two vertices: the later one',
         from: [0, 1.5], want: [[0, 1.5], [0, 2], [0, 3]]},
    ];
    for (const c of cases) {
        test(c.name, () => {
            assert.deepEqual(plain(story.tail(ROUTE, c.from)), c.want);
        });
    }

    test('a route that passes a place twice: from its last visit', () => {
        const loop = [[0, 0], [0, 1], [1, 1], [0, 1], [0, 2]];
        assert.deepEqual(plain(story.tail(loop, [0, 1])), [[0, 1], [0, 2]]);
    });

    test('the route itself is left as it was', () => {
        const route = [[0, 0], [0, 1]];
        story.tail(route, [5, 5]);
        assert.deepEqual(route, [[0, 0], [0, 1]]);
    });
});

describe('along: the point at a fraction of a route, by length', () => {
    // An L: 3 units north, then 1 east (4 in all).
    const ELL = [[0, 0], [3, 0], [3, 1]];
    const cases = [
        {name: 'the start at 0', coords: ELL, f: 0, want: [0, 0]},
        {name: 'the end at 1', coords: ELL, f: 1, want: [3, 1]},
        {name: 'a quarter: one unit up the first leg', coords: ELL, f: 0.25, want: [1, 0]},
        {name: 'three quarters: the corner', coords: ELL, f: 0.75, want: [3, 0]},
        {name: 'seven eighths: halfway along the last leg', coords: ELL, f: 0.875,
         want: [3, 0.5]},
        {name: 'a straight line: the midpoint at a half', coords: [[10, 20], [12, 24]], f: 0.5,
         want: [11, 22]},
        {name: 'a diagonal: by its length, not by its vertices',
         coords: [[0, 0], [3, 4], [3, 5]], f: 0.5, want: [1.8, 2.4]},
        {name: 'a repeated vertex takes no time', coords: [[0, 0], [0, 2], [0, 2], [0, 4]],
         f: 0.75, want: [0, 3]},
    ];
    for (const c of cases) {
        test(c.name, () => {
            const got = plain(story.along(c.coords, c.f));
            assert.equal(got.length, 2);
            got.forEach((v, i) => assert.ok(Math.abs(v - c.want[i]) < 1e-9, `${got} != ${c.want}`));
        });
    }

    test('every fraction: that share of the length walked', () => {
        // Each leg goes north or east, so the length walked is lat + lon: 6 in all.
        const route = [[0, 0], [1, 0], [1, 2], [4, 2]];
        for (let n = 0; n <= 20; n++) {
            const p = story.along(route, n / 20);
            assert.ok(Math.abs(p[0] + p[1] - 6 * n / 20) < 1e-9, `${p} at ${n / 20}`);
        }
    });
});

describe('test hooks', () => {
    test('a reader\'s page keeps no record for the tests', () => {
        assert.equal(load('story').Dateline.test, undefined);
    });
    test('a page under test (window.DatelineTesting) keeps each draw\'s origin', () => {
        const window = loadInto({DatelineTesting: true}, 'story');
        assert.deepEqual(plain(window.Dateline.test), {draws: [], windows: [], track: [], animating: 0});
    });
});
