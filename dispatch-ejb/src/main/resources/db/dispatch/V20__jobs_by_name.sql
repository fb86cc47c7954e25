-- The Jobs view's search by job name reads a page off this index (JBeret's job_instance would make it
-- sort every instance of the name: V18's plan test at 100,000 executions). Older rows have no name and
-- are found through JBeret's tables by their other keys.
ALTER TABLE dispatch.admissions ADD COLUMN job_name text;
CREATE INDEX admissions_job_idx ON dispatch.admissions (job_name, submission_id);
