/**
 * The benchmark page's charts (page/app/svg.ts) for data a noisy or coarse clock can
 * give: every value equal, values far larger than their spread, zeros and
 * infinities on log axes. Each must draw, with no NaN in the SVG.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { lineChart, type Scale } from '../app/svg.js';

const line = (ys: readonly number[], scale: Scale, extra: { min?: number } = {}): string =>
  lineChart({
    title: 'a chart',
    width: 600,
    height: 300,
    x: { label: 'x', scale: 'linear' },
    y: { label: 'y', scale, ...extra },
    series: [{ name: 'a series', color: '#000', points: ys.map((y, i) => [i, y] as const) }],
  });

const drawn = (svg: string, label: string): void => {
  assert.match(svg, /^<svg[\s\S]*<\/svg>$/, `${label}: not an SVG`);
  assert.doesNotMatch(svg, /NaN|Infinity/, `${label}: a coordinate is not a number`);
};

it('draws values that are all equal, or far larger than their spread (where stepping a tick by its step changes nothing)', () => {
  drawn(line([1e20, 1e20, 1e20], 'linear'), 'equal, 1e20');
  drawn(line([1e17, 1e17 + 16, 1e17 + 32], 'linear'), '1e17 apart by 16');
  drawn(line([1000, 1000 + 2.3e-13, 1000], 'linear'), '1000 apart by one ulp');
  drawn(line([5, 5, 5], 'log10'), 'equal, log');
  // A linear axis of ordinary values keeps its ticks.
  assert.ok((line([1, 2, 3], 'linear').match(/<text/g) ?? []).length > 5);
});

it('draws log axes whose values include 0, infinities and NaN, or whose given minimum is 0', () => {
  drawn(line([0, 1, 10, Number.POSITIVE_INFINITY, Number.NaN], 'log10'), 'zero and infinity');
  drawn(line([0, 0], 'log2'), 'only zeros');
  drawn(line([1, 10, 100], 'log10', { min: 0 }), 'min 0');
  drawn(line([5e-324, 1], 'log10'), 'the smallest double');
});
