-- Schedules an application creates, changes and deletes through DispatchSchedules (issue 39): source 'api'. Like the
-- console's, they live in the database only: the watchdog's sync of declarations neither disables nor replaces them.
ALTER TABLE dispatch.schedules DROP CONSTRAINT schedules_source_check;
ALTER TABLE dispatch.schedules ADD CONSTRAINT schedules_source_check CHECK (source IN ('code', 'config', 'console', 'api'));
