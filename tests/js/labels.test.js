// Dateline.labels.place (geo/map/js/basemap.js): greedy label placement, boxes in, placements out.
'use strict';

const assert = require('node:assert/strict');
const {describe, test} = require('node:test');
const {load, plain} = require('./load');

const {place, overlaps} = load('basemap').Dateline.labels;

const VIEW = {x: 0, y: 0, w: 400, h: 300};
// A story place's label 40 x 10 at (200, 150), its marker's radius 3: the gap is 6 px.
function label(fields) {
    return {t: 'story', x: 200, y: 150, w: 40, h: 10, r: 3, ...fields};
}
const RIGHT = {x: 206, y: 145};
const LEFT = {x: 154, y: 145};
const ABOVE = {x: 180, y: 134};
const BELOW = {x: 180, y: 156};
// Boxes that cover one spot each around (200, 150).
const ON_RIGHT = {x: 210, y: 146, w: 20, h: 8};
const ON_LEFT = {x: 170, y: 146, w: 20, h: 8};
const ON_TOP = {x: 195, y: 130, w: 10, h: 10};
const ON_BOTTOM = {x: 195, y: 160, w: 10, h: 10};

function spots(placed) {
    return plain(placed.map((p) => ({x: p.x, y: p.y})));
}

describe('one label: the first free spot on screen', () => {
    const cases = [
        {name: 'right of its point when free', item: label(), obstacles: [], want: [RIGHT]},
        {name: 'left when the right is taken', item: label(), obstacles: [ON_RIGHT], want: [LEFT]},
        {name: 'above when right and left are taken', item: label(),
         obstacles: [ON_RIGHT, ON_LEFT], want: [ABOVE]},
        {name: 'below when only below is free', item: label(),
         obstacles: [ON_RIGHT, ON_LEFT, ON_TOP], want: [BELOW]},
        {name: 'dropped when every spot is taken', item: label(),
         obstacles: [ON_RIGHT, ON_LEFT, ON_TOP, ON_BOTTOM], want: []},
        {name: 'the gap grows with the marker', item: label({r: 10}), obstacles: [],
         want: [{x: 213, y: 145}]},
        {name: 'no radius counts as 3', item: label({r: undefined}), obstacles: [], want: [RIGHT]},
        {name: 'a country is centred on its point', item: label({t: 'country'}), obstacles: [],
         want: [{x: 180, y: 145}]},
        {name: 'a river is centred', item: label({t: 'river'}), obstacles: [],
         want: [{x: 180, y: 145}]},
        {name: 'a region is centred', item: label({t: 'area'}), obstacles: [],
         want: [{x: 180, y: 145}]},
        {name: "an event's region goes beside its marker", item: label({t: 'area', must: true}),
         obstacles: [], want: [RIGHT]},
        {name: 'a centred label has no other spot', item: label({t: 'country'}),
         obstacles: [{x: 199, y: 149, w: 2, h: 2}], want: []},
        {name: 'a basemap city goes around its point', item: label({t: 'city'}), obstacles: [],
         want: [RIGHT]},
        {name: 'left when the right runs off the screen', item: label({x: 360}), obstacles: [],
         want: [{x: 314, y: 145}]},
        {name: 'right when the left runs off the screen', item: label({x: 30}), obstacles: [],
         want: [{x: 36, y: 145}]},
        {name: 'below when above runs off the top', item: label({y: 8}),
         obstacles: [{x: 210, y: 4, w: 20, h: 8}, {x: 170, y: 4, w: 20, h: 8}],
         want: [{x: 180, y: 14}]},
        {name: 'dropped when its point is far off screen', item: label({x: 900}), obstacles: [],
         want: []},
        {name: 'dropped when taller than the screen', item: label({h: 400}), obstacles: [],
         want: []},
        {name: 'edges that only touch do not overlap', item: label(),
         obstacles: [{x: 246, y: 146, w: 20, h: 8}], want: [RIGHT]},
        {name: 'the selection takes a free spot like any label',
         item: label({t: 'story dl-label-selected'}), obstacles: [ON_RIGHT], want: [LEFT]},
        {name: 'the selection is named over a neighbour',
         item: label({t: 'story dl-label-selected'}),
         obstacles: [ON_RIGHT, ON_LEFT, ON_TOP, ON_BOTTOM], want: [RIGHT]},
        {name: 'the selection is named even off screen',
         item: label({t: 'story dl-label-selected', x: 900}), obstacles: [],
         want: [{x: 906, y: 145}]},
    ];
    for (const c of cases) {
        test(c.name, () => {
            assert.deepEqual(spots(place([c.item], c.obstacles, VIEW)), c.want);
        });
    }
});

describe('several labels: in priority order, none over another', () => {
    const cases = [
        {name: 'two at one point: the first right, the second left',
         items: [label({n: 'a'}), label({n: 'b'})], want: [['a', RIGHT], ['b', LEFT]]},
        {name: 'the earlier one wins the contested spot',
         items: [label({n: 'a', x: 210}), label({n: 'b'})],
         want: [['a', {x: 216, y: 145}], ['b', LEFT]]},
        {name: 'a country under a story label is dropped',
         items: [label({n: 'story'}), label({n: 'country', t: 'country', x: 226})],
         want: [['story', RIGHT]]},
        {name: 'in the other order the country stays and the story label moves',
         items: [label({n: 'country', t: 'country', x: 226}), label({n: 'story'})],
         want: [['country', {x: 206, y: 145}], ['story', LEFT]]},
        {name: 'a label dropped takes no room',
         items: [label({n: 'far', x: 900}), label({n: 'b'})], want: [['b', RIGHT]]},
        {name: 'a selection forced over a label keeps later ones off both',
         items: [label({n: 'a'}), label({n: 'b'}), label({n: 'c'}), label({n: 'd'}),
                 label({n: 'sel', t: 'story dl-label-selected'}), label({n: 'e'})],
         want: [['a', RIGHT], ['b', LEFT], ['c', ABOVE], ['d', BELOW], ['sel', RIGHT]]},
    ];
    for (const c of cases) {
        test(c.name, () => {
            const got = place(c.items, [], VIEW).map((p) => [p.item.n, {x: p.x, y: p.y}]);
            assert.deepEqual(plain(got), c.want);
        });
    }
});

// A seeded crowd of labels: whatever is kept overlaps nothing else kept and no obstacle, stays on
// screen, and keeps the input's order.
function crowd(seed, n) {
    let s = seed;
    const rand = () => {
        s = (s * 1103515245 + 12345) % 2147483648;
        return s / 2147483648;
    };
    const kinds = ['story', 'place', 'city', 'country', 'river', 'halt'];
    return Array.from({length: n}, (_, i) => ({
        n: String(i), t: kinds[Math.floor(rand() * kinds.length)],
        x: rand() * 440 - 20, y: rand() * 340 - 20,
        w: 10 + Math.floor(rand() * 80), h: 8 + Math.floor(rand() * 8), r: Math.floor(rand() * 10),
    }));
}

describe('a crowd of labels', () => {
    for (const seed of [1, 7, 42, 2024]) {
        test(`seed ${seed}: no overlaps, on screen, in order`, () => {
            const items = crowd(seed, 150);
            const obstacles = [{x: 0, y: 0, w: 60, h: 80}, {x: 340, y: 250, w: 60, h: 50}];
            const placed = place(items, obstacles, VIEW);
            assert.ok(placed.length > 10 && placed.length < items.length, placed.length);
            const boxes = placed.map((p) => ({x: p.x, y: p.y, w: p.item.w, h: p.item.h}));
            boxes.forEach((a, i) => {
                assert.ok(a.x >= 0 && a.y >= 0 && a.x + a.w <= 400 && a.y + a.h <= 300);
                obstacles.forEach((o) => assert.ok(!overlaps(a, o), `label ${i} on an obstacle`));
                boxes.slice(i + 1).forEach((b) => assert.ok(!overlaps(a, b), 'labels overlap'));
            });
            const order = placed.map((p) => Number(p.item.n));
            assert.deepEqual(plain(order), [...order].sort((a, b) => a - b));
        });
    }
});

test('placing leaves its inputs as they were', () => {
    const items = [label({n: 'a'}), label({n: 'b'})];
    const obstacles = [ON_RIGHT];
    const before = JSON.stringify([items, obstacles]);
    place(items, obstacles, VIEW);
    assert.equal(JSON.stringify([items, obstacles]), before);
});

test('a placement carries its item and whether it is the selection', () => {
    const items = [label({n: 'a'}), label({n: 'b', t: 'story dl-label-selected', x: 50})];
    const placed = place(items, [], VIEW);
    assert.equal(placed[0].item, items[0]);
    assert.deepEqual(plain(placed.map((p) => p.selected)), [false, true]);
});

test('without Leaflet the script shares only its pure parts and first-paint helpers', () => {
    const window = load('basemap');
    assert.deepEqual(Object.keys(window), ['Dateline']);
    assert.deepEqual(Object.keys(window.Dateline).sort(),
                     ['holdFirstReport', 'labels', 'plural', 'reportPainted']);
});
