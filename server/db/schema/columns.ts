/** Column builders the tables share, so that one kind of column is written one way everywhere. */
import { serial, text, timestamp } from 'drizzle-orm/pg-core';

/** The row's own number, counted by the database. */
export const serialId = () => serial('id').primaryKey();

/** A point in time, stored with its time zone. */
export const instant = (name: string) => timestamp(name, { withTimezone: true });

/** A point in time that is always set, to the time of the insert unless given. */
export const instantNow = (name: string) => instant(name).notNull().defaultNow();

/** The Meta ad account (act_…) a row belongs to. */
export const adAccountId = () => text('ad_account_id');
