import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cancellationSplit, COMPENSATION_MAX_CENTS, formatCents, serviceFeeCents, splitFeeCents } from './money';

describe('the service fee', () => {
  it.each([
    [0, 0],
    [1, 50],
    [499, 50],
    [500, 50],
    [505, 51],
    [504, 50],
    [1250, 125],
    [1255, 126],
    [100_000, 10_000],
  ])('on %i cents is %i cents (10%%, half up, at least $0.50, none for no compensation)', (compensation, fee) => {
    expect(serviceFeeCents(compensation)).toBe(fee);
  });

  it('is always whole cents, at least 50 and within a cent of 10%', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: COMPENSATION_MAX_CENTS }), (c) => {
        const fee = serviceFeeCents(c);
        expect(Number.isInteger(fee)).toBe(true);
        expect(fee).toBeGreaterThanOrEqual(50);
        if (fee > 50) expect(Math.abs(fee - c / 10)).toBeLessThanOrEqual(0.5);
      }),
    );
  });
});

describe("the Delivery Guarantee reserve's share of a released fee", () => {
  it.each([
    [0, 0, 0],
    [50, 38, 12],
    [125, 94, 31],
    [10_000, 7_500, 2_500],
  ])('of a %i cent fee: %i to fees, %i to the reserve', (fee, feesCents, reserveCents) => {
    expect(splitFeeCents(fee)).toEqual({ feesCents, reserveCents });
  });

  it('adds up to the fee, the reserve taking 25% rounded down', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: COMPENSATION_MAX_CENTS }), (fee) => {
        const { feesCents, reserveCents } = splitFeeCents(fee);
        expect(feesCents + reserveCents).toBe(fee);
        expect(reserveCents).toBe(Math.floor(fee / 4));
      }),
    );
  });
});

describe('the cancellation policy', () => {
  it('refunds everything when the driver cancels, picked up or not, and when the requester cancels before pickup', () => {
    for (const c of [
      { by: 'driver', pickedUp: false },
      { by: 'driver', pickedUp: true },
      { by: 'requester', pickedUp: false },
    ] as const)
      expect(cancellationSplit(1250, 125, c)).toEqual({ refundCents: 1375, driverKeepsCents: 0 });
  });

  it('leaves the driver half the compensation (rounded down) when the requester cancels after pickup', () => {
    expect(cancellationSplit(1250, 125, { by: 'requester', pickedUp: true })).toEqual({
      refundCents: 750,
      driverKeepsCents: 625,
    });
    expect(cancellationSplit(1251, 126, { by: 'requester', pickedUp: true })).toEqual({
      refundCents: 752,
      driverKeepsCents: 625,
    });
  });

  it('never loses or invents a cent: the refund and what the driver keeps add up to what was paid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: COMPENSATION_MAX_CENTS }),
        fc.constantFrom('driver', 'requester'),
        fc.boolean(),
        (compensation, by, pickedUp) => {
          const fee = serviceFeeCents(compensation);
          const { refundCents, driverKeepsCents } = cancellationSplit(compensation, fee, { by, pickedUp });
          expect(refundCents + driverKeepsCents).toBe(compensation + fee);
          expect(driverKeepsCents).toBeGreaterThanOrEqual(0);
          expect(driverKeepsCents).toBeLessThanOrEqual(compensation / 2);
        },
      ),
    );
  });
});

describe('formatCents', () => {
  it.each([
    [0, '$0.00'],
    [5, '$0.05'],
    [1250, '$12.50'],
    [123_456_789, '$1,234,567.89'],
    [-75, '-$0.75'],
  ])('%i -> %s', (cents, text) => expect(formatCents(cents)).toBe(text));
});
