import { describe, expect, it } from 'vitest';

import { axisLabelSpace } from '../../src/renderer/components/activity-chart';

describe("the activity chart's time axis", () => {
  it("spaces its ticks by the width of the labels it writes, wider than uPlot's 50 px where they need it", () => {
    // "10:00 PM" is about 55 px in the axis font: at 50 px apart, labels ran into each other at 800 px.
    expect(axisLabelSpace('10:00 PM')).toBeGreaterThanOrEqual(70);
    // Chinese characters are twice as wide as digits.
    expect(axisLabelSpace('12月28日')).toBeGreaterThan(axisLabelSpace('12/28'));
    expect(axisLabelSpace('22:00')).toBeGreaterThanOrEqual(50);
  });
});
