-- Step 25 is PostgreSQL's alone (migrations/postgresql/0025_statement_triggers.sql: its
-- row-level triggers that keep current rows and counts become statement-level ones, and
-- thumbnails are stored without a compression try). SQLite's triggers run in the writing
-- process at no round trip's cost, and it never compresses: nothing changes here.
SELECT 1;
