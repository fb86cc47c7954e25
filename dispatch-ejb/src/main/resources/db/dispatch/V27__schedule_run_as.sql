-- Who a schedule's occurrences run as (issue 33, ADR 0024): declared in code or standalone.xml (run-as), or
-- the console user who created it. Null: nobody in particular.
ALTER TABLE dispatch.schedules ADD COLUMN run_as text;
