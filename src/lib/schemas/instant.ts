import { z } from "zod";
import "./plain-messages";

/**
 * The instants an API field accepts: what PostgreSQL's timestamps store and JavaScript writes back
 * as ISO 8601, years 0001 to 9999 in UTC. Year 0000 is valid ISO 8601 (1 BC) but PostgreSQL refuses
 * it (22008), which answered 500 before this bound.
 */
export const EARLIEST_INSTANT = "0001-01-01T00:00:00.000Z";
export const LATEST_INSTANT = "9999-12-31T23:59:59.999Z";
export const INSTANT_RANGE_MESSAGE = `must be between ${EARLIEST_INSTANT} and ${LATEST_INSTANT}`;

const iso = z.iso.datetime({ offset: true });
const [earliest, latest] = [Date.parse(EARLIEST_INSTANT), Date.parse(LATEST_INSTANT)];

/**
 * The one date-time type of every query and body field: ISO 8601 with an offset (Z or ±hh:mm), within
 * EARLIEST_INSTANT..LATEST_INSTANT once read as UTC. The document declares it as a `date-time` whose
 * pattern refuses year 0000 (an offset that crosses the bound is refused here, a 400 like any other).
 */
export const instantSchema = () =>
  iso
    .refine((value) => {
      const at = Date.parse(value);
      return at >= earliest && at <= latest;
    }, { error: INSTANT_RANGE_MESSAGE })
    .meta({ pattern: `^(?!0000-)${iso._zod.def.pattern!.source.slice(1)}` });
