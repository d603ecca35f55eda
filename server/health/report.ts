/** The health panel's answer as of now: the stored checks with the readings of the last two weeks. */
import { DateTime } from 'luxon';
import type { Database } from '../db/client';
import { createHealthStore } from './store';

export const READINGS_DAYS = 15;

export const readingsSinceDay = (now: Date) =>
  DateTime.fromJSDate(now, { zone: 'utc' }).minus({ days: READINGS_DAYS }).toISODate()!;

export const platformHealthNow = (db: Database, now = new Date()) =>
  createHealthStore(db).platformHealth(readingsSinceDay(now));
