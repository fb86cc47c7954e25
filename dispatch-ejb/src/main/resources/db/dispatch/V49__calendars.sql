-- Calendars of excluded times (issue 39, ADR 0053): declared in code, standalone.xml or the console, kept here so every
-- node reads the same one; a schedule names one and skips or moves the run times it excludes.
CREATE TABLE dispatch.calendars (
    name           text         PRIMARY KEY,
    source         text         NOT NULL CHECK (source IN ('code', 'config', 'console')),
    zone           text         NOT NULL,
    -- canonical comma-separated text (ExclusionCalendar#text): what standalone.xml and the console's form take
    dates          text         NOT NULL DEFAULT '',
    yearly         text         NOT NULL DEFAULT '',
    days           text         NOT NULL DEFAULT '',
    windows        text         NOT NULL DEFAULT '',
    declared_hash  text,
    updated_by     text,
    updated_at     timestamptz  NOT NULL DEFAULT clock_timestamp()
);

-- A schedule's calendar must exist while the schedule names it: a calendar in use is not deleted.
ALTER TABLE dispatch.schedules ADD COLUMN calendar text REFERENCES dispatch.calendars (name),
    ADD COLUMN excluded text CHECK (excluded IN ('skip', 'move')),
    ADD CONSTRAINT schedules_excluded_needs_calendar CHECK ((calendar IS NULL) = (excluded IS NULL));
CREATE INDEX schedules_calendar_idx ON dispatch.schedules (calendar) WHERE calendar IS NOT NULL;
