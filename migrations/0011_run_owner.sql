-- Which process runs a run, so that a run whose process died (kill -9, a
-- power cut) can be told from one still running: "host boot-id pid
-- start-time" (see RunOwner). NULL for runs made before this migration.
-- A run with no outcome whose owner is gone is marked interrupted, with
-- finished_at left NULL, by the next command that opens the catalogue for
-- writing.
ALTER TABLE runs ADD COLUMN owner TEXT;
