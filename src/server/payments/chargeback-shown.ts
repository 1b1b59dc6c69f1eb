import { sql } from 'drizzle-orm';

/**
 * Whether a payment shows 'Chargeback': a card dispute of it is open, or closed for the cardholder (not won). An SQL
 * expression for a select from `payments` (named so, not aliased). Written out in full: drizzle leaves a column
 * unqualified in a one-table select, and inside this subquery an unqualified id would be the dispute's. The booking
 * page's function (rr_booking_page, migration 0047) has the same test in SQL: a change here goes in a migration too.
 */
export const chargebackShown = () =>
  sql<boolean>`exists (select 1 from chargebacks cb where cb.payment_id = "payments"."id"
    and cb.status not in ('won', 'warning_closed'))`.mapWith(Boolean);
