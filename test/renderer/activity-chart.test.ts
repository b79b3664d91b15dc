import { describe, expect, it } from 'vitest';

import { axisLabelSpace, tickLabels } from '../../src/renderer/components/activity-chart';

describe("the activity chart's time axis", () => {
  it("spaces its ticks by the width of the labels it writes, wider than uPlot's 50 px where they need it", () => {
    // "10:00 PM" is about 55 px in the axis font: at 50 px apart, labels ran into each other at 800 px.
    expect(axisLabelSpace('10:00 PM')).toBeGreaterThanOrEqual(70);
    // Chinese characters are twice as wide as digits.
    expect(axisLabelSpace('12月28日')).toBeGreaterThan(axisLabelSpace('12/28'));
    expect(axisLabelSpace('22:00')).toBeGreaterThanOrEqual(50);
  });
});

describe("the activity chart's day labels", () => {
  it('writes each date once: ticks every few hours across a week said the same day two or three times', () => {
    const day = (d: number, h: number) => new Date(2026, 11, d, h).getTime() / 1000;
    const labels = tickLabels([day(1, 0), day(1, 12), day(2, 0), day(2, 12), day(3, 0)], 'zh-CN', { month: 'numeric', day: 'numeric' });
    expect(labels.filter(Boolean)).toEqual(['12/1', '12/2', '12/3']);
    expect(labels).toHaveLength(5);
  });
});
